// Original file: packages/contracts/protos/delivery/v1/site_registry.proto


export interface QuietHoursWindow {
  'from'?: (string);
  'to'?: (string);
}

export interface QuietHoursWindow__Output {
  'from': (string);
  'to': (string);
}
