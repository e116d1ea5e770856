// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface InvitePreview {
  'kind'?: (string);
  'siteName'?: (string);
  'invitedBy'?: (string);
}

export interface InvitePreview__Output {
  'kind': (string);
  'siteName': (string);
  'invitedBy': (string);
}
