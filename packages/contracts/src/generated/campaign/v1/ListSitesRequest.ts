// Original file: packages/contracts/protos/campaign/v1/site_admin.proto


export interface ListSitesRequest {
}

export interface ListSitesRequest__Output {
}
