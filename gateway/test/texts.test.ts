// The gateway's catalogue of the `message` texts it answers itself (src/texts.ts).
import { MESSAGES, OWN_MESSAGES, SPEC_MESSAGES } from '../src/texts.js';
import { itChecksTheCatalogue } from '../../test/support/spec-texts.js';

describe('gateway: the message catalogue', () => {
  itChecksTheCatalogue({ file: 'gateway/src/texts.ts', sources: 'gateway/src', spec: SPEC_MESSAGES, own: OWN_MESSAGES, all: MESSAGES });
});
