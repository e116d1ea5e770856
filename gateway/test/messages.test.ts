// The gateway's catalogue of the `message` texts it answers itself (src/messages.ts).
import { MESSAGES, OWN_MESSAGES, SPEC_MESSAGES } from '../src/messages.js';
import { itChecksTheCatalogue } from '../../test/support/spec-messages.js';

describe('gateway: the message catalogue', () => {
  itChecksTheCatalogue({ file: 'gateway/src/messages.ts', sources: 'gateway/src', spec: SPEC_MESSAGES, own: OWN_MESSAGES, all: MESSAGES });
});
