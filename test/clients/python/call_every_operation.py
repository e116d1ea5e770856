# Calls every operation of gateway/openapi/openapi.yaml through the Python client that OpenAPI
# Generator's CLI made from it (generator `python`: urllib3 + pydantic 2), as a customer's
# program would, and prints one JSON line: each step's status, X-Request-Id, Location and body.
# test/e2e/generated-cli-clients.test.ts generates the package, runs this against the real stack
# and judges the output (the same steps as the typescript-fetch program):
#   PYTHONPATH=<generated package> python3 call_every_operation.py '<json arguments>'
import json
import sys

import urllib3

import campaigns_client as c
from campaigns_client.exceptions import ApiException

args = json.loads(sys.argv[1])
run = args["runId"]
config = c.Configuration(host=args["origin"], api_key={"apiKey": args["key"]})
client = c.ApiClient(config)
campaigns, audience, users, webhooks = c.CampaignsApi(client), c.AudienceApi(client), c.UsersApi(client), c.WebhooksApi(client)
templates = c.TemplatesApi(client)
automations = c.AutomationsApi(client)
feeds = c.FeedsApi(client)
contract, plugin = c.ContractApi(client), c.SitePluginApi(client)
# A program that wants a redirect's Location, not its target: urllib3 follows redirects unless told.
no_redirects = c.Configuration(host=args["origin"], retries=urllib3.Retry(total=0, redirect=False))
plugin_no_redirects = c.SitePluginApi(c.ApiClient(no_redirects))

steps = {}


def step(name, operation, call):
    """Runs one call (a *_with_http_info method) and records what it answered."""
    try:
        r = call()
        data = r.data
        if isinstance(data, (bytes, bytearray)):  # format: binary (CSV, NDJSON, YAML, JavaScript)
            body = data.decode("utf-8")
        else:
            body = client.sanitize_for_serialization(data)
        steps[name] = {"operation": operation, "status": r.status_code, "ok": True, "body": body,
                       "requestId": r.headers.get("X-Request-Id"), "location": r.headers.get("Location")}
        return data
    except ApiException as e:
        try:
            body = json.loads(e.body) if e.body else None
        except ValueError:
            body = e.body
        headers = e.headers or {}
        steps[name] = {"operation": operation, "status": e.status, "ok": False, "body": body,
                       "requestId": headers.get("X-Request-Id"), "location": headers.get("Location")}
    except Exception as e:  # the client itself failed (e.g. it could not read a valid answer)
        steps[name] = {"operation": operation, "status": None, "ok": False, "error": f"{type(e).__name__}: {e}"}
    return None


keys = {"p256dh": args["p256dh"], "auth": args["auth"]}
endpoint_a, endpoint_b = args["endpointA"], args["endpointB"]
public_id = args["publicId"]

step("getOpenApiJson", "getOpenApiJson", contract.get_open_api_json_with_http_info)
step("getOpenApiYaml", "getOpenApiYaml", contract.get_open_api_yaml_with_http_info)
step("getSnippet", "getSnippet", plugin.get_snippet_with_http_info)
step("getServiceWorker", "getServiceWorker", plugin.get_service_worker_with_http_info)
step("getPromptScript", "getPromptScript", plugin.get_prompt_script_with_http_info)
step("getSiteConfig", "getSiteConfig", lambda: plugin.get_site_config_with_http_info(public_id))
step("subscribe", "subscribe", lambda: plugin.subscribe_with_http_info(public_id, c.SubscribeRequest.from_dict(
    {"subscription": {"endpoint": endpoint_a, "expirationTime": None, "keys": keys}, "topics": ["news"], "language": "en-US", "timeZone": "UTC"})))
step("recordPageView", "recordPageView", lambda: plugin.record_page_view_with_http_info(public_id, c.PageViewRequest.from_dict({"endpoint": endpoint_a, "topics": ["sports"]})))
step("subscribeSuccessor", "subscribe", lambda: plugin.subscribe_with_http_info(public_id, c.SubscribeRequest.from_dict(
    {"subscription": {"endpoint": endpoint_b, "expirationTime": None, "keys": keys}, "topics": []})))
step("recordSubscriptionChange", "recordSubscriptionChange", lambda: plugin.record_subscription_change_with_http_info(
    public_id, c.SubscriptionChangeRequest.from_dict({"oldEndpoint": endpoint_a, "endpoint": endpoint_b})))
step("unsubscribe", "unsubscribe", lambda: plugin.unsubscribe_with_http_info(public_id, c.UnsubscribeRequest.from_dict({"endpoint": endpoint_a})))
step("recordOptInEvent", "recordOptInEvent", lambda: plugin.record_opt_in_event_with_http_info(public_id, c.OptInEventRequest.from_dict({"event": "shown", "promptId": "slide-down"})))

step("listTopics", "listTopics", audience.list_topics_with_http_info)
step("listCountries", "listCountries", audience.list_countries_with_http_info)
step("getOptInFunnel", "getOptInFunnel", lambda: audience.get_opt_in_funnel_with_http_info(prompt="slide-down"))
step("importSubscribers", "importSubscribers", lambda: audience.import_subscribers_with_http_info(c.ImportSubscribersRequest.from_dict(
    {"subscriptions": [{"endpoint": args["endpointImport"], "keys": keys, "topics": ["imported"], "country": "PT", "createdAt": "2025-06-01T12:00:00Z"}]})))
step("exportSubscribers", "exportSubscribers", lambda: audience.export_subscribers_with_http_info(format="csv", topics="imported"))

# People: the page identifies the browser (the signature made by the site's server) and sets the
# visitor's `lang`; the server reads, tags and exports the user; the page logs out; the server
# deletes the user (the logged-out subscription stays).
external_id = args["externalId"]
step("identifySubscription", "identifySubscription", lambda: plugin.identify_subscription_with_http_info(public_id, c.IdentifyRequest.from_dict(
    {"endpoint": endpoint_b, "externalId": external_id, "signature": args["signature"]})))
step("tagVisitor", "tagVisitor", lambda: plugin.tag_visitor_with_http_info(public_id, c.VisitorTagsRequest.from_dict({"endpoint": endpoint_b, "tags": {"lang": "pt"}})))
step("getUser", "getUser", lambda: users.get_user_with_http_info(external_id))
step("updateUser", "updateUser", lambda: users.update_user_with_http_info(external_id, c.UpdateUserRequest.from_dict(
    {"tags": {"plan": "gold", "score": 7, "signed_up_at": "2026-01-15"}})))
step("exportUser", "exportUser", lambda: users.export_user_with_http_info(external_id))
step("forgetSubscriptionIdentity", "forgetSubscriptionIdentity", lambda: plugin.forget_subscription_identity_with_http_info(
    public_id, c.UnsubscribeRequest.from_dict({"endpoint": endpoint_b})))
step("deleteUser", "deleteUser", lambda: users.delete_user_with_http_info(external_id))
step("getDeletedUser", "getUser", lambda: users.get_user_with_http_info(external_id))

created = step("createCampaign", "createCampaign", lambda: campaigns.create_campaign_with_http_info(c.CreateCampaignRequest.from_dict({
    "title": "Python client", "body": "Sent through the generated Python client", "link": "https://shop.example/python",
    "topics": ["news"], "status": "published", "scheduleMode": "scheduled", "scheduleDate": "2031-06-01T10:30:00Z",
    "ignoreFrequencyCap": True, "utmSource": "python"}), idempotency_key=f"python-{run}", x_request_id=f"python-create-{run}"))
campaign_id = created.id if created else None  # a UUID, as the answers give it
step("getCampaign", "getCampaign", lambda: campaigns.get_campaign_with_http_info(campaign_id))
filters = {"startDate": "2031-06-01T00:00:00+00:00", "endDate": "2031-06-30T23:59:59Z", "dateField": "scheduleDate", "status": ["scheduled"]}
step("listCampaigns", "listCampaigns", lambda: campaigns.list_campaigns_with_http_info(list_campaigns_request=c.ListCampaignsRequest.from_dict(filters)))
step("exportCampaigns", "exportCampaigns", lambda: campaigns.export_campaigns_with_http_info(format="ndjson", list_campaigns_request=c.ListCampaignsRequest.from_dict(filters)))
step("planCampaignPreview", "planCampaignPreview", lambda: campaigns.plan_campaign_preview_with_http_info(c.PlanPreviewRequest.from_dict(
    {"topics": ["news"], "sendTime": {"mode": "bestTime", "within": "3h", "holdout": 20}})))
step("pickCampaignWinner", "pickCampaignWinner", lambda: campaigns.pick_campaign_winner_with_http_info(campaign_id, c.PickWinnerRequest(variant=1)))
step("updateCampaign", "updateCampaign", lambda: campaigns.update_campaign_with_http_info(campaign_id, c.CampaignUpdateRequest(title="Corrected title")))
step("recallCampaign", "recallCampaign", lambda: campaigns.recall_campaign_with_http_info(campaign_id))
step("deleteCampaign", "deleteCampaign", lambda: campaigns.delete_campaign_with_http_info(campaign_id))
step("getDeletedCampaign", "getCampaign", lambda: campaigns.get_campaign_with_http_info(campaign_id))

# Templates: save one, list, read, change its body (version 2), render it with a visitor's
# values, delete it; then reading it answers 404. (The request models are built with their
# constructors: from_dict would send every nullable field as null.)
template = step("createTemplate", "createTemplate", lambda: templates.create_template_with_http_info(c.CreateTemplateRequest(
    name=f"Back in stock {run}", title='Hi {{ first_name | "there" }}', body="Your {{ product }} is back", link="https://shop.example/p/{{ product_id }}")))
template_id = template.id if template else None
step("listTemplates", "listTemplates", lambda: templates.list_templates_with_http_info(limit=10))
step("getTemplate", "getTemplate", lambda: templates.get_template_with_http_info(template_id))
step("updateTemplate", "updateTemplate", lambda: templates.update_template_with_http_info(template_id, c.UpdateTemplateRequest(body='Only {{ left | "a few" }} {{ product }} left')))
step("renderTemplate", "renderTemplate", lambda: templates.render_template_with_http_info(template_id, render_template_request=c.RenderTemplateRequest.from_dict(
    {"variables": {"first_name": "Ana", "product": "red boots", "product_id": "b/42", "left": 3}})))

# Automations: an abandoned cart's reminder an hour later through the template, cancelled by the
# checkout; list, the person's event (202: they are enrolled), read it with its enrolments, pause,
# delete; then reading it answers 404 (before the template goes).
automation = step("createAutomation", "createAutomation", lambda: automations.create_automation_with_http_info(c.CreateAutomationRequest.from_dict({
    "name": f"Abandoned cart {run}", "trigger": {"type": "event", "name": "cart_abandoned"},
    "steps": [{"delaySeconds": 3600, "templateId": template_id, "variables": {"first_name": "there"}}],
    "exitOn": {"events": ["checkout_completed"]}}), x_request_id=f"python-automation-{run}"))
automation_id = automation.id if automation else None
step("listAutomations", "listAutomations", lambda: automations.list_automations_with_http_info(limit=10))
step("recordEvent", "recordEvent", lambda: automations.record_event_with_http_info(c.EventRequest.from_dict(
    {"externalId": external_id, "name": "cart_abandoned", "properties": {"product": "red boots", "total": 89.9}}), idempotency_key=f"python-event-{run}"))
step("getAutomation", "getAutomation", lambda: automations.get_automation_with_http_info(automation_id))
step("updateAutomation", "updateAutomation", lambda: automations.update_automation_with_http_info(automation_id, c.UpdateAutomationRequest(status="paused")))
step("deleteAutomation", "deleteAutomation", lambda: automations.delete_automation_with_http_info(automation_id))
step("getDeletedAutomation", "getAutomation", lambda: automations.get_automation_with_http_info(automation_id))

step("deleteTemplate", "deleteTemplate", lambda: templates.delete_template_with_http_info(template_id))
step("getDeletedTemplate", "getTemplate", lambda: templates.get_template_with_http_info(template_id))

notifications = c.NotificationsApi(client)
notified = step("createNotification", "createNotification", lambda: notifications.create_notification_with_http_info(c.CreateNotificationRequest.from_dict({
    "subscriptionIds": ["00000000-0000-4000-8000-000000000001"], "title": "Your order shipped", "body": "Sent through the generated Python client",
    "link": "https://shop.example/orders/1"}), idempotency_key=f"python-notify-{run}"))
step("getNotification", "getNotification", lambda: notifications.get_notification_with_http_info(notified.id if notified else None))
step("listNotifications", "listNotifications", lambda: notifications.list_notifications_with_http_info(limit=10))

# Feeds: add one at a name that need not resolve (its polls fail and say so), list, read, pause
# it, delete it; then reading it answers 404.
feed = step("createFeed", "createFeed", lambda: feeds.create_feed_with_http_info(c.CreateFeedRequest(
    url=f"https://feeds.example.com/{run}.xml", topics=["news"], utm_source="feed")))
feed_id = feed.id if feed else None
step("listFeeds", "listFeeds", lambda: feeds.list_feeds_with_http_info(limit=10))
step("getFeed", "getFeed", lambda: feeds.get_feed_with_http_info(feed_id))
step("updateFeed", "updateFeed", lambda: feeds.update_feed_with_http_info(feed_id, c.UpdateFeedRequest(paused=True, poll_interval_minutes=60)))
step("deleteFeed", "deleteFeed", lambda: feeds.delete_feed_with_http_info(feed_id))
step("getDeletedFeed", "getFeed", lambda: feeds.get_feed_with_http_info(feed_id))

hook = step("createWebhook", "createWebhook", lambda: webhooks.create_webhook_with_http_info(c.CreateWebhookRequest.from_dict(
    {"url": "https://hooks.example.com/python", "events": ["subscriber.created", "notification.clicks"], "description": "Python client"})))
hook_id = hook.id if hook else None
step("listWebhooks", "listWebhooks", webhooks.list_webhooks_with_http_info)
step("getWebhook", "getWebhook", lambda: webhooks.get_webhook_with_http_info(hook_id))
step("updateWebhook", "updateWebhook", lambda: webhooks.update_webhook_with_http_info(hook_id, c.UpdateWebhookRequest.from_dict({"description": "Python client, changed"})))
ping = step("pingWebhook", "pingWebhook", lambda: webhooks.ping_webhook_with_http_info(hook_id))
step("listWebhookDeliveries", "listWebhookDeliveries", lambda: webhooks.list_webhook_deliveries_with_http_info(hook_id))
step("redeliverWebhookEvent", "redeliverWebhookEvent", lambda: webhooks.redeliver_webhook_event_with_http_info(hook_id, ping.event_id if ping else None))
step("rotateWebhookSecret", "rotateWebhookSecret", lambda: webhooks.rotate_webhook_secret_with_http_info(hook_id, rotate_webhook_secret_request=c.RotateWebhookSecretRequest(overlapHours=1)))
step("deleteWebhook", "deleteWebhook", lambda: webhooks.delete_webhook_with_http_info(hook_id))

step("reportEvent", "reportEvent", lambda: plugin.report_event_with_http_info(c.ReportEventRequest.from_dict({"type": "impression", "token": args["token"]})))
step("clickRedirect", "clickRedirect", lambda: plugin_no_redirects.click_redirect_with_http_info(args["token"]))

print(json.dumps({"runId": run, "steps": steps}))
