// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface RemoveMemberResponse {
}

export interface RemoveMemberResponse__Output {
}
