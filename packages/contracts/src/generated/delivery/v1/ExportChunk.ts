// Original file: packages/contracts/protos/delivery/v1/audience.proto


export interface ExportChunk {
  'data'?: (Buffer | Uint8Array | string);
}

export interface ExportChunk__Output {
  'data': (Buffer);
}
