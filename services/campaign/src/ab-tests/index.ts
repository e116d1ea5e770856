// The ab-tests/ feature's surface, what the rest of the service may import (docs/architecture.md,
// "House rules"): the customer's pick of an A/B test's winner, the delivery service's Runs client.
export { pickWinnerUseCase } from './pick-winner.js';
export type { WinnerPicker } from './pick-winner.js';
export { createRunsClient } from './runs-client.js';
