// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface RevokeInviteResponse {
}

export interface RevokeInviteResponse__Output {
}
