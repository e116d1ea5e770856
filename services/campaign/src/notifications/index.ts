// The notifications/ feature's surface: a notification to chosen subscriptions created, read
// with its per-subscription results, listed (docs/api-decisions.md, "Notifications").
export { createNotificationUseCase, storeNotification } from './create-notification.js';
export { sendTimeFields, validateNotificationInput } from './notification-input.js';
export type { NotificationInput } from './notification-input.js';
export { notificationInputOf } from './notification-template.js';
export type { NotificationTemplateRenderer } from './notification-template.js';
export { notificationByIdUseCases, NOTIFICATION_OUTCOMES } from './notification-by-id.js';
export type { NotificationAnswer, NotificationOutcome, NotificationResultsReader, NotificationRun } from './notification-by-id.js';
