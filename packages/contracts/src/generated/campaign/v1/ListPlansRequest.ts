// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface ListPlansRequest {
}

export interface ListPlansRequest__Output {
}
