// The templates/ feature's surface: /v2/templates and the rendering of a create's `template`.
export { templateUseCases } from './templates.js';
export type { NotificationTemplate, RenderedNotificationTemplate, RenderedTemplate, Template, TemplatePage, TemplateRenderer } from './templates.js';
// For automations/: a step names a stored template of the site, and its variables follow the render's rules.
export { templateById } from './template-store.js';
export { variablesField } from './template-input.js';
