// The templates/ feature's surface: /v2/templates and the rendering of a create's `template`.
export { templateUseCases } from './templates.js';
export type { RenderedTemplate, Template, TemplatePage, TemplateRenderer } from './templates.js';
