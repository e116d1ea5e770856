// Original file: packages/contracts/protos/campaign/v1/campaign.proto


export interface Feed {
  'id'?: (string);
  'url'?: (string);
  'pollIntervalMinutes'?: (number);
  'paused'?: (boolean);
  'settingsJson'?: (string);
  'title'?: (string);
  'lastFetchedAt'?: (string);
  'lastSuccessAt'?: (string);
  'lastError'?: (string);
  'consecutiveFailures'?: (number);
  'nextPollAt'?: (string);
  'campaignsCreated'?: (number);
  'createdAt'?: (string);
  'updatedAt'?: (string);
}

export interface Feed__Output {
  'id': (string);
  'url': (string);
  'pollIntervalMinutes': (number);
  'paused': (boolean);
  'settingsJson': (string);
  'title': (string);
  'lastFetchedAt': (string);
  'lastSuccessAt': (string);
  'lastError': (string);
  'consecutiveFailures': (number);
  'nextPollAt': (string);
  'campaignsCreated': (number);
  'createdAt': (string);
  'updatedAt': (string);
}
