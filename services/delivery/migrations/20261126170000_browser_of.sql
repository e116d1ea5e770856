-- The browser family behind a subscription, told from its push service's host: the one rule, used
-- by the subscribers export and by segments (services/shared/src/segment.ts). Chromium browsers
-- other than Edge (Chrome, Opera, Brave, Samsung Internet) all push through FCM: `chrome`.
CREATE FUNCTION delivery.browser_of(endpoint text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT CASE
    WHEN h IN ('fcm.googleapis.com', 'android.googleapis.com') THEN 'chrome'
    WHEN h LIKE '%.notify.windows.com' THEN 'edge'
    WHEN h = 'push.services.mozilla.com' OR h LIKE '%.push.services.mozilla.com' THEN 'firefox'
    WHEN h = 'push.apple.com' OR h LIKE '%.push.apple.com' THEN 'safari'
    ELSE 'other'
  END
  FROM (SELECT lower(substring(endpoint FROM '^[hH][tT][tT][pP][sS]?://([^/:?#]+)')) AS h) AS host
$$;
