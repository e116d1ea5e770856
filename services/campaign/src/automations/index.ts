// The automations/ feature's surface: /v2/automations, POST /v2/events, the welcome enrolment and
// the due-step runner (docs/api-decisions.md, "Automations").
export { automationUseCases } from './automations.js';
export type { Automation, AutomationPage } from './automations.js';
export { createStepRunner, sendDueSteps } from './step-runner.js';
