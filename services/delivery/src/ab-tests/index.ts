// The ab-tests/ feature's surface: what the rest of the service may import from it (docs/architecture.md,
// "House rules"). Everything else in the folder is the feature's own.
export { startTestWindow, variantResults } from './ab-test-store.js';
export { decideEndedTests, PICK_REFUSED, pickWinner, winnerGate } from './winners.js';
