// Original file: packages/contracts/protos/common/v1/page.proto


export interface Page {
  'limit'?: (number);
  'hasMore'?: (boolean);
  'nextCursor'?: (string);
  '_nextCursor'?: "nextCursor";
}

export interface Page__Output {
  'limit': (number);
  'hasMore': (boolean);
  'nextCursor'?: (string);
  '_nextCursor'?: "nextCursor";
}
