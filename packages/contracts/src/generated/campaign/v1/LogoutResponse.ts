// Original file: packages/contracts/protos/campaign/v1/console.proto


export interface LogoutResponse {
}

export interface LogoutResponse__Output {
}
