// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface PersonSubscription {
  'id'?: (string);
  'browser'?: (string);
  'createdAt'?: (string);
  'active'?: (boolean);
  'lastEngagedAt'?: (string);
  'country'?: (string);
  'topics'?: (string)[];
  '_lastEngagedAt'?: "lastEngagedAt";
}

export interface PersonSubscription__Output {
  'id': (string);
  'browser': (string);
  'createdAt': (string);
  'active': (boolean);
  'lastEngagedAt'?: (string);
  'country': (string);
  'topics': (string)[];
  '_lastEngagedAt'?: "lastEngagedAt";
}
