-- The opt-in funnel (issue 39; docs/site-plugin.md, "Opt-in funnel"): per site, UTC day, prompt
-- and event, how many times it happened. Counters only, never a row per visitor: a site's rows
-- are bounded by days kept × prompts per day (at most 50 ids a day, the rest under "(other)":
-- optin/funnel.ts) × 6 events, whatever its traffic or a spoofer sends. 'shown', 'accepted',
-- 'dismissed' and 'denied' are the plugin's reports; 'subscribed' and 'unsubscribed' are counted
-- by the subscribe and unsubscribe calls themselves when the subscriber's state changed. Rows
-- older than the retention (optin/funnel.ts FUNNEL_RETENTION_DAYS) leave in the retention pass.
CREATE TABLE delivery.optin_funnel (
  site_id uuid NOT NULL REFERENCES delivery.sites (site_id),
  day date NOT NULL,
  prompt_id text NOT NULL CHECK (length(prompt_id) BETWEEN 1 AND 64),
  event text NOT NULL CHECK (event IN ('shown', 'accepted', 'dismissed', 'denied', 'subscribed', 'unsubscribed')),
  count bigint NOT NULL CHECK (count > 0),
  PRIMARY KEY (site_id, day, prompt_id, event)
);

-- The retention pass's purge reads by day across sites.
CREATE INDEX optin_funnel_by_day ON delivery.optin_funnel (day);

-- One event counted for the site today, under its prompt, or under "(other)" once the site has 50
-- other prompts today (a bound against made-up ids; "(other)" is no valid prompt id, so it never
-- mixes with one). One function for every writer: the plugin's report (optin/funnel-store.ts) and
-- the subscribe and unsubscribe statements (audience/subscriber-store.ts), which call it in the
-- statement that changes the subscriber, so the count and the change are written together.
CREATE FUNCTION delivery.count_optin(p_site uuid, p_prompt text, p_event text) RETURNS integer LANGUAGE sql AS $$
  INSERT INTO delivery.optin_funnel AS f (site_id, day, prompt_id, event, count)
  SELECT p_site, t.day,
         CASE WHEN EXISTS (SELECT 1 FROM delivery.optin_funnel o WHERE o.site_id = p_site AND o.day = t.day AND o.prompt_id = p_prompt)
                OR (SELECT count(DISTINCT o.prompt_id) FROM delivery.optin_funnel o WHERE o.site_id = p_site AND o.day = t.day AND o.prompt_id <> '(other)') < 50
              THEN p_prompt ELSE '(other)' END,
         p_event, 1
    FROM (SELECT delivery.utc_day(now()) AS day) t
  ON CONFLICT (site_id, day, prompt_id, event) DO UPDATE SET count = f.count + 1
  RETURNING 1
$$;
