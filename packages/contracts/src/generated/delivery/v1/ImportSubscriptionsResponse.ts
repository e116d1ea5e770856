// Original file: packages/contracts/protos/delivery/v1/audience.proto

import type { ImportRefusal as _delivery_v1_ImportRefusal, ImportRefusal__Output as _delivery_v1_ImportRefusal__Output } from '../../delivery/v1/ImportRefusal';

export interface ImportSubscriptionsResponse {
  'received'?: (number);
  'imported'?: (number);
  'existing'?: (number);
  'refused'?: (number);
  'refusals'?: (_delivery_v1_ImportRefusal)[];
  'vapidPublicKey'?: (string);
}

export interface ImportSubscriptionsResponse__Output {
  'received': (number);
  'imported': (number);
  'existing': (number);
  'refused': (number);
  'refusals': (_delivery_v1_ImportRefusal__Output)[];
  'vapidPublicKey': (string);
}
