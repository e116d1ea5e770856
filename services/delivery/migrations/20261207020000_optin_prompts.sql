-- A site's opt-in prompts (docs/site-plugin.md, "Opt-in prompts"): the soft prompt, its texts,
-- trigger and snooze, the bell and the topic choices, as its owners and editors set them in the
-- console (sites/optin-prompts.ts checks every value before it is written). NULL: never set, the
-- defaults apply (no prompt, no bell). Served in the plugin's public configuration.
ALTER TABLE delivery.sites ADD COLUMN optin_prompts jsonb;
