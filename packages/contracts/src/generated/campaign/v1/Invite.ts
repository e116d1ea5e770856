// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface Invite {
  'id'?: (string);
  'email'?: (string);
  'role'?: (string);
  'invitedBy'?: (string);
  'createdAt'?: (string);
  'expiresAt'?: (string);
}

export interface Invite__Output {
  'id': (string);
  'email': (string);
  'role': (string);
  'invitedBy': (string);
  'createdAt': (string);
  'expiresAt': (string);
}
