export { startPushSimulator } from './simulator.js';
export { engagementFactor, inPeak, peakHour, subscriptionIdOf, type HourlyPopulation } from './hourly.js';
export { seededRandom } from './random.js';
export { decryptAes128gcm, DecryptError, type ReceiverKeys } from './aes128gcm.js';
export type {
  Behaviour, DeviceOptions, DeviceStats, PushSimulator, PushSimulatorOptions, ReceivedMessage,
  SimulatedSubscription, SimulatorMode, SimulatorStats,
} from './types.js';
