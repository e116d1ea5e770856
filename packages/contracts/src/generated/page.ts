import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { Page as _common_v1_Page, Page__Output as _common_v1_Page__Output } from './common/v1/Page';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  common: {
    v1: {
      Page: MessageTypeDefinition<_common_v1_Page, _common_v1_Page__Output>
    }
  }
}

