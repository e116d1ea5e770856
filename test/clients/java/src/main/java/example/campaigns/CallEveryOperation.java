package example.campaigns;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import example.campaigns.client.ApiClient;
import example.campaigns.client.api.AudienceApi;
import example.campaigns.client.api.AutomationsApi;
import example.campaigns.client.api.CampaignsApi;
import example.campaigns.client.api.ContractApi;
import example.campaigns.client.api.FeedsApi;
import example.campaigns.client.api.NotificationsApi;
import example.campaigns.client.api.SitePluginApi;
import example.campaigns.client.api.TemplatesApi;
import example.campaigns.client.api.UsersApi;
import example.campaigns.client.api.WebhooksApi;
import example.campaigns.client.model.Automation;
import example.campaigns.client.model.AutomationExitOn;
import example.campaigns.client.model.AutomationStep;
import example.campaigns.client.model.AutomationStepInput;
import example.campaigns.client.model.AutomationTrigger;
import example.campaigns.client.model.Campaign;
import example.campaigns.client.model.CampaignPage;
import example.campaigns.client.model.CampaignUpdateRequest;
import example.campaigns.client.model.CreatedCampaign;
import example.campaigns.client.model.CreateCampaignRequest;
import example.campaigns.client.model.CreateAutomationRequest;
import example.campaigns.client.model.CreateNotificationRequest;
import example.campaigns.client.model.CreateFeedRequest;
import example.campaigns.client.model.CreateTemplateRequest;
import example.campaigns.client.model.Feed;
import example.campaigns.client.model.UpdateFeedRequest;
import example.campaigns.client.model.CreateWebhookRequest;
import example.campaigns.client.model.ImportSubscribersReport;
import example.campaigns.client.model.ImportSubscribersRequest;
import example.campaigns.client.model.ImportedSubscription;
import example.campaigns.client.model.ImportedSubscriptionKeys;
import example.campaigns.client.model.EventRequest;
import example.campaigns.client.model.EventRequestPropertiesValue;
import example.campaigns.client.model.IdentifyRequest;
import example.campaigns.client.model.ListCampaignsRequest;
import example.campaigns.client.model.NameCount;
import example.campaigns.client.model.NotificationSummary;
import example.campaigns.client.model.OptInEventRequest;
import example.campaigns.client.model.PageViewRequest;
import example.campaigns.client.model.PickWinnerRequest;
import example.campaigns.client.model.PlanPreviewRequest;
import example.campaigns.client.model.RenderTemplateRequest;
import example.campaigns.client.model.RenderedTemplate;
import example.campaigns.client.model.RotateWebhookSecretRequest;
import example.campaigns.client.model.SendTimeRequest;
import example.campaigns.client.model.SubscribeRequest;
import example.campaigns.client.model.SubscribeRequestSubscription;
import example.campaigns.client.model.SubscribeRequestSubscriptionKeys;
import example.campaigns.client.model.SubscriptionChangeRequest;
import example.campaigns.client.model.Template;
import example.campaigns.client.model.TemplateVariable;
import example.campaigns.client.model.UnsubscribeRequest;
import example.campaigns.client.model.UpdateAutomationRequest;
import example.campaigns.client.model.UpdateTemplateRequest;
import example.campaigns.client.model.UpdateUserRequest;
import example.campaigns.client.model.UpdateUserRequestTagsValue;
import example.campaigns.client.model.UpdateWebhookRequest;
import example.campaigns.client.model.User;
import example.campaigns.client.model.VisitorTagsRequest;
import example.campaigns.client.model.Webhook;
import example.campaigns.client.model.WebhookDelivery;
import example.campaigns.client.model.WebhookEventType;
import example.campaigns.client.model.WebhookWithSecret;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.interfaces.ECPublicKey;
import java.security.spec.ECGenParameterSpec;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Calls the API through the Java client generated from gateway/openapi/openapi.yaml
 * (openapi-generator, library `native`), as a customer's program would:
 *
 * <pre>java -jar target/java-client-check.jar &lt;baseUrl&gt; &lt;apiKey&gt; &lt;publicId&gt; &lt;runId&gt; &lt;identitySecret&gt;</pre>
 *
 * <p>Every /v2 operation and the site-plugin ones a server-side program can make, with one
 * base URL (the document's single server). Prints one JSON line on stdout: for each call its
 * HTTP status (seen by a response interceptor), whether the generated client returned a value,
 * the value's interesting fields or the exception. Exit status 0 when the program ran to the
 * end, whatever the calls answered: the test judges the answers.
 */
public final class CallEveryOperation {
  private static final ObjectMapper OUT = ApiClient.createDefaultObjectMapper();

  public static void main(String[] args) throws Exception {
    if (args.length != 5) {
      System.err.println("usage: CallEveryOperation <baseUrl> <apiKey> <publicId> <runId> <identitySecret>");
      System.exit(2);
    }
    String baseUrl = args[0];
    String apiKey = args[1];
    String publicId = args[2];
    String runId = args[3];
    String identitySecret = args[4];

    Calls calls = new Calls();
    // The client as its documentation shows it: base URI, timeouts, and (library `native` has no
    // generated authentication) the API key added by a request interceptor, as copied, in
    // Authorization. The response interceptor only records the status and X-Request-Id.
    ApiClient client = calls.attach(new ApiClient(), baseUrl, apiKey);
    // A second client whose mapper writes dates with a numeric offset (`+00:00`) instead of `Z`,
    // as a program with its own OffsetDateTime serializer would.
    ApiClient offsetClient = calls.attach(new ApiClient(), baseUrl, apiKey);
    DateTimeFormatter numericOffset = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSSSSSSSxxx");
    ObjectMapper offsetMapper = ApiClient.createDefaultObjectMapper();
    offsetMapper.registerModule(new SimpleModule("numeric-offset").addSerializer(OffsetDateTime.class, new JsonSerializer<OffsetDateTime>() {
      @Override
      public void serialize(OffsetDateTime value, JsonGenerator gen, SerializerProvider serializers) throws IOException {
        gen.writeString(numericOffset.format(value));
      }
    }));
    offsetClient.setObjectMapper(offsetMapper);

    CampaignsApi campaigns = new CampaignsApi(client);
    CampaignsApi campaignsWithOffset = new CampaignsApi(offsetClient);
    AudienceApi audience = new AudienceApi(client);
    ContractApi contract = new ContractApi(client);
    SitePluginApi plugin = new SitePluginApi(client);
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("runId", runId);

    // Contract.
    calls.call("getOpenApiJson", () -> {
      Object doc = contract.getOpenApiJson();
      return Map.of("openapi", String.valueOf(((Map<?, ?>) doc).get("openapi")));
    });
    calls.call("getOpenApiYaml", () -> head(contract.getOpenApiYaml()));

    // Site plugin, as a server-side program (or a test of the site) would call it.
    calls.call("getSnippet", () -> head(plugin.getSnippet("java-snippet-" + runId)));
    calls.call("getServiceWorker", () -> head(plugin.getServiceWorker(null)));
    calls.call("getPromptScript", () -> head(plugin.getPromptScript(null)));
    calls.call("getSiteConfig", () -> plugin.getSiteConfig(publicId, null));
    String endpointA = "https://127.0.0.1/push/java-a-" + runId;
    String endpointB = "https://127.0.0.1/push/java-b-" + runId;
    out.put("endpointA", endpointA);
    out.put("endpointB", endpointB);
    calls.call("subscribe", () -> plugin.subscribe(publicId, new SubscribeRequest()
        .subscription(browserSubscription(endpointA))
        .topics(List.of("news"))
        .language("pt-BR")
        .timeZone("America/Sao_Paulo"), null));
    calls.call("recordPageView", () -> plugin.recordPageView(publicId, new PageViewRequest().endpoint(endpointA).topics(List.of("sports")), null));
    calls.call("subscribeSuccessor", () -> plugin.subscribe(publicId, new SubscribeRequest().subscription(browserSubscription(endpointB)).topics(List.of()), null));
    calls.call("recordSubscriptionChange", () -> plugin.recordSubscriptionChange(publicId, new SubscriptionChangeRequest().oldEndpoint(endpointA).endpoint(endpointB), null));
    calls.call("unsubscribe", () -> plugin.unsubscribe(publicId, new UnsubscribeRequest().endpoint(endpointA), null));
    // The opt-in prompt was shown (the snippet reports it); the funnel then counts it.
    calls.call("recordOptInEvent", () -> Map.of("counted", plugin.recordOptInEvent(publicId, new OptInEventRequest().event(OptInEventRequest.EventEnum.SHOWN).promptId("slide-down"), null).getCounted()));

    // Audience.
    calls.call("listTopics", () -> names(audience.listTopics(null)));
    calls.call("listCountries", () -> audience.listCountries(null));
    calls.call("getOptInFunnel", () -> {
      var funnel = audience.getOptInFunnel(null, null, null, "slide-down");
      return Map.of("prompt", funnel.getPrompt(), "shown", funnel.getTotals().getShown());
    });
    // An import from another provider: one browser's subscription.
    SubscribeRequestSubscription moved = browserSubscription("https://127.0.0.1/push/java-import-" + runId);
    calls.call("exportSubscribers", () -> head(audience.exportSubscribers(null, "csv", null, null)));
    calls.call("importSubscribers", () -> report(audience.importSubscribers(new ImportSubscribersRequest()
        .subscriptions(List.of(new ImportedSubscription()
            .endpoint(moved.getEndpoint())
            .keys(new ImportedSubscriptionKeys().p256dh(moved.getKeys().getP256dh()).auth(moved.getKeys().getAuth()))
            .topics(List.of("imported"))
            .country("PT")
            .createdAt("2025-06-01T12:00:00Z"))), null)));

    // People: the site's server signs its user's id with the identity secret; the page identifies
    // the browser with it and sets the visitor's `lang`; the server reads, tags and exports the
    // user; the page logs out; the server deletes the user (the logged-out subscription stays).
    UsersApi users = new UsersApi(client);
    String externalId = "java-user-" + runId;
    out.put("externalId", externalId);
    String signature = hmacSha256Hex(identitySecret, externalId);
    calls.call("identifySubscription", () -> plugin.identifySubscription(publicId, new IdentifyRequest().endpoint(endpointB).externalId(externalId).signature(signature), null));
    calls.call("tagVisitor", () -> plugin.tagVisitor(publicId, new VisitorTagsRequest().endpoint(endpointB).tags(Map.of("lang", new UpdateUserRequestTagsValue("pt"))), null));
    calls.call("getUser", () -> user(users.getUser(externalId, null)));
    calls.call("updateUser", () -> user(users.updateUser(externalId, new UpdateUserRequest().tags(Map.of(
        "plan", new UpdateUserRequestTagsValue("gold"), "score", new UpdateUserRequestTagsValue(BigDecimal.valueOf(7)), "signed_up_at", new UpdateUserRequestTagsValue("2026-01-15"))), null)));
    calls.call("exportUser", () -> {
      var exported = users.exportUser(externalId, null);
      return Map.of("externalId", exported.getExternalId(), "tags", exported.getTags(), "subscriptions", exported.getSubscriptions().size());
    });
    calls.call("forgetSubscriptionIdentity", () -> plugin.forgetSubscriptionIdentity(publicId, new UnsubscribeRequest().endpoint(endpointB), null));
    calls.call("deleteUser", () -> users.deleteUser(externalId, null));
    calls.call("getDeletedUser", () -> user(users.getUser(externalId, null)));

    // Campaigns: send now, draft, scheduled (OffsetDateTime with nanoseconds, written with `Z`)
    // and scheduled again (written with `+00:00` by the second client).
    OffsetDateTime now = OffsetDateTime.now(ZoneOffset.UTC);
    OffsetDateTime inOneHour = now.plusHours(1).withNano(123_456_789);
    OffsetDateTime inTwoHours = now.plusHours(2).withNano(987_654_321);
    CreateCampaignRequest sendNow = campaign("Java send now", CreateCampaignRequest.StatusEnum.PUBLISHED, CreateCampaignRequest.ScheduleModeEnum.NOW, null);
    CreateCampaignRequest draft = campaign("Java draft", CreateCampaignRequest.StatusEnum.DRAFT, CreateCampaignRequest.ScheduleModeEnum.NOW, null);
    CreateCampaignRequest scheduled = campaign("Java scheduled", CreateCampaignRequest.StatusEnum.PUBLISHED, CreateCampaignRequest.ScheduleModeEnum.SCHEDULED, inOneHour);
    CreateCampaignRequest scheduledOffset = campaign("Java scheduled +00:00", CreateCampaignRequest.StatusEnum.PUBLISHED, CreateCampaignRequest.ScheduleModeEnum.SCHEDULED, inTwoHours);
    // What went on the wire for the dates: the generated client's own mappers.
    out.put("scheduledWire", client.getObjectMapper().convertValue(scheduled, Map.class).get("scheduleDate"));
    out.put("scheduledOffsetWire", offsetClient.getObjectMapper().convertValue(scheduledOffset, Map.class).get("scheduleDate"));

    UUID sendNowId = id(calls.call("createSendNow", () -> campaigns.createCampaign(sendNow, "java-now-" + runId, "java-create-" + runId)));
    calls.call("createSendNowAgain", () -> campaigns.createCampaign(sendNow, "java-now-" + runId, null));
    UUID draftId = id(calls.call("createDraft", () -> campaigns.createCampaign(draft, null, null)));
    UUID scheduledId = id(calls.call("createScheduled", () -> campaigns.createCampaign(scheduled, null, null)));
    UUID scheduledOffsetId = id(calls.call("createScheduledOffset", () -> campaignsWithOffset.createCampaign(scheduledOffset, null, null)));
    out.put("ids", Map.of("sendNow", String.valueOf(sendNowId), "draft", String.valueOf(draftId), "scheduled", String.valueOf(scheduledId), "scheduledOffset", String.valueOf(scheduledOffsetId)));

    calls.call("exportCampaigns", () -> head(campaigns.exportCampaigns(null, "csv", new ListCampaignsRequest().dateField(ListCampaignsRequest.DateFieldEnum.SCHEDULE_DATE))));
    calls.call("getScheduled", () -> campaign(campaigns.getCampaign(scheduledId, null)));
    calls.call("getScheduledOffset", () -> campaign(campaigns.getCampaign(scheduledOffsetId, null)));
    calls.call("getDraft", () -> campaign(campaigns.getCampaign(draftId, null)));

    // A period on scheduleDate built from OffsetDateTime values (nanoseconds, `Z`): the two
    // scheduled campaigns, newest first; one per page to follow the cursor. The same period
    // written with `+00:00` by the second client.
    ListCampaignsRequest period = new ListCampaignsRequest()
        .startDate(now.plusMinutes(30).withNano(1))
        .endDate(now.plusHours(3).withNano(999_999_999))
        .dateField(ListCampaignsRequest.DateFieldEnum.SCHEDULE_DATE);
    calls.call("listPeriod", () -> page(campaigns.listCampaigns(null, period)));
    calls.call("listPeriodFirstPage", () -> page(campaigns.listCampaigns(null, copy(period).limit(1))));
    String cursor = calls.lastValue("listPeriodFirstPage") instanceof Map<?, ?> m ? (String) m.get("nextCursor") : null;
    calls.call("listPeriodSecondPage", () -> page(campaigns.listCampaigns(null, copy(period).limit(1).cursor(cursor))));
    calls.call("listPeriodOffset", () -> page(campaignsWithOffset.listCampaigns(null, period)));
    calls.call("listLatest", () -> page(campaigns.listCampaigns(null, new ListCampaignsRequest())));
    calls.call("listDrafts", () -> page(campaigns.listCampaigns(null, new ListCampaignsRequest().addStatusItem(ListCampaignsRequest.StatusEnum.DRAFT))));

    // A best-time campaign's plan before sending: three hours and a fifth held out.
    calls.call("planCampaignPreview", () -> campaigns.planCampaignPreview(new PlanPreviewRequest().topics(List.of("news"))
        .sendTime(new SendTimeRequest().mode(SendTimeRequest.ModeEnum.BEST_TIME).within("3h").holdout(20)), null));

    // Pick an A/B test's winner: the scheduled campaign has no A/B test, so 409.
    calls.call("pickWinnerNoTest", () -> campaigns.pickCampaignWinner(scheduledId, new PickWinnerRequest().variant(1), null));

    // Update and recall: the scheduled campaign has not been sent, so 409.
    calls.call("updateNotSent", () -> campaigns.updateCampaign(scheduledId, new CampaignUpdateRequest().title("Corrected title"), null));
    calls.call("recallNotSent", () -> campaigns.recallCampaign(scheduledId, null));

    // Delete: a scheduled campaign (its schedule is cancelled) and the draft; then get answers 404.
    calls.call("deleteScheduled", () -> campaigns.deleteCampaign(scheduledId, null));
    calls.call("deleteDraft", () -> campaigns.deleteCampaign(draftId, null));
    calls.call("getDeleted", () -> campaign(campaigns.getCampaign(scheduledId, null)));

    // Notifications: one to a subscription id the site does not have (accepted, 202; its result
    // says so), with an Idempotency-Key; read back and listed.
    NotificationsApi notifications = new NotificationsApi(client);
    UUID unknownSubscription = UUID.fromString("00000000-0000-4000-8000-000000000001");
    Map<String, Object> notified = calls.call("createNotification", () -> Map.of("id", String.valueOf(notifications.createNotification(new CreateNotificationRequest()
        .subscriptionIds(Set.of(unknownSubscription))
        .title("Your order shipped")
        .body("Sent through the generated Java client")
        .link("https://shop.example/orders/1")
        .transactional(true), "java-notify-" + runId, null).getId())));
    UUID notificationId = notified == null ? null : UUID.fromString((String) notified.get("id"));
    calls.call("getNotification", () -> {
      var n = notifications.getNotification(notificationId, 10, null, null);
      return Map.of("id", String.valueOf(n.getId()), "transactional", n.getTransactional(), "targets", n.getTargets(), "title", n.getContent().getTitle());
    });
    calls.call("listNotifications", () -> {
      List<String> ids = new ArrayList<>();
      for (NotificationSummary n : notifications.listNotifications(10, null, null).getItems()) ids.add(String.valueOf(n.getId()));
      return Map.of("ids", ids);
    });

    // Templates: save one, list, read, change its body (version 2), render it with a visitor's
    // values, delete it; then reading it answers 404.
    TemplatesApi templates = new TemplatesApi(client);
    Map<String, Object> template = calls.call("createTemplate", () -> template(templates.createTemplate(new CreateTemplateRequest()
        .name("Back in stock " + runId)
        .title("Hi {{ first_name | \"there\" }}")
        .body("Your {{ product }} is back")
        .link("https://shop.example/p/{{ product_id }}"), null)));
    UUID templateId = template == null ? null : UUID.fromString((String) template.get("id"));
    calls.call("listTemplates", () -> {
      List<Map<String, Object>> list = new ArrayList<>();
      for (Template t : templates.listTemplates(10, null, null).getItems()) list.add(template(t));
      return list;
    });
    calls.call("getTemplate", () -> template(templates.getTemplate(templateId, null)));
    calls.call("updateTemplate", () -> template(templates.updateTemplate(templateId, new UpdateTemplateRequest().body("Only {{ left | \"a few\" }} {{ product }} left"), null)));
    calls.call("renderTemplate", () -> rendered(templates.renderTemplate(templateId, null, new RenderTemplateRequest().variables(Map.of(
        "first_name", new EventRequestPropertiesValue("Ana"), "product", new EventRequestPropertiesValue("red boots"), "product_id", new EventRequestPropertiesValue("b/42"),
        "left", new EventRequestPropertiesValue(BigDecimal.valueOf(3)))))));
    // Automations: an abandoned cart's reminder an hour later through the template, cancelled by
    // the checkout; list, the person's event (202: they are enrolled), read it with its
    // enrolments, pause, delete; then reading it answers 404 (before the template goes).
    AutomationsApi automations = new AutomationsApi(client);
    Map<String, Object> automation = calls.call("createAutomation", () -> automation(automations.createAutomation(new CreateAutomationRequest()
        .name("Abandoned cart " + runId)
        .trigger(new AutomationTrigger().type(AutomationTrigger.TypeEnum.EVENT).name("cart_abandoned"))
        .steps(List.of(new AutomationStepInput().delaySeconds(3600).templateId(templateId).variables(Map.of("first_name", new EventRequestPropertiesValue("there")))))
        .exitOn(new AutomationExitOn().events(Set.of("checkout_completed"))), "java-automation-" + runId)));
    UUID automationId = automation == null ? null : UUID.fromString((String) automation.get("id"));
    calls.call("listAutomations", () -> {
      List<Map<String, Object>> list = new ArrayList<>();
      for (Automation a : automations.listAutomations(10, null, null).getItems()) list.add(automation(a));
      return list;
    });
    calls.call("recordEvent", () -> Map.of("id", String.valueOf(automations.recordEvent(new EventRequest().externalId(externalId).name("cart_abandoned").properties(Map.of(
        "product", new EventRequestPropertiesValue("red boots"), "total", new EventRequestPropertiesValue(new BigDecimal("89.9")))), "java-event-" + runId, null).getId())));
    calls.call("getAutomation", () -> automation(automations.getAutomation(automationId, null)));
    calls.call("updateAutomation", () -> automation(automations.updateAutomation(automationId, new UpdateAutomationRequest().status(UpdateAutomationRequest.StatusEnum.PAUSED).throttlePerMinute(120), null)));
    calls.call("deleteAutomation", () -> {
      var deleted = automations.deleteAutomation(automationId, null);
      return Map.of("id", String.valueOf(deleted.getId()), "deleted", deleted.getDeleted());
    });
    calls.call("getDeletedAutomation", () -> automation(automations.getAutomation(automationId, null)));
    calls.call("deleteTemplate", () -> {
      var deleted = templates.deleteTemplate(templateId, null);
      return Map.of("id", String.valueOf(deleted.getId()), "deleted", deleted.getDeleted());
    });
    calls.call("getDeletedTemplate", () -> template(templates.getTemplate(templateId, null)));

    // Feeds: add one at a name that need not resolve (accepted when saved; its polls fail and
    // say so), list, read, pause it, delete it; then reading it answers 404.
    FeedsApi feeds = new FeedsApi(client);
    Map<String, Object> feed = calls.call("createFeed", () -> feed(feeds.createFeed(new CreateFeedRequest()
        .url("https://feeds.example.com/java-" + runId + ".xml")
        .topics(List.of("news")), null)));
    UUID feedId = feed == null ? null : UUID.fromString((String) feed.get("id"));
    calls.call("listFeeds", () -> {
      List<Map<String, Object>> list = new ArrayList<>();
      for (Feed f : feeds.listFeeds(10, null, null).getItems()) list.add(feed(f));
      return list;
    });
    calls.call("getFeed", () -> feed(feeds.getFeed(feedId, null)));
    // The generated model starts its lists as [] and would send them (an empty audience); null
    // leaves them out, so the feed keeps its topics and countries.
    calls.call("updateFeed", () -> feed(feeds.updateFeed(feedId, new UpdateFeedRequest().topics(null).countries(null).paused(true).pollIntervalMinutes(60), null)));
    calls.call("deleteFeed", () -> {
      var deleted = feeds.deleteFeed(feedId, null);
      return Map.of("id", String.valueOf(deleted.getId()), "deleted", deleted.getDeleted());
    });
    calls.call("getDeletedFeed", () -> feed(feeds.getFeed(feedId, null)));

    // Webhooks: an endpoint at a name that need not resolve (accepted at create: there is no DNS
    // where the tests run; its deliveries fail and wait), for events this program raises no more
    // once it exists, so its ping is the only event listed. Create, list, get, change, ping, its
    // deliveries, redeliver the ping, rotate the secret, delete; then get answers 404.
    WebhooksApi webhooks = new WebhooksApi(client);
    String hookUrl = "https://hooks.example.com/java-" + runId;
    out.put("webhookUrl", hookUrl);
    Map<String, Object> createdHook = calls.call("createWebhook", () -> webhook(webhooks.createWebhook(new CreateWebhookRequest()
        .url(hookUrl)
        .events(List.of(WebhookEventType.SUBSCRIBER_CREATED, WebhookEventType.NOTIFICATION_CLICKS))
        .description("Java client"), "java-webhook-" + runId)));
    UUID webhookId = createdHook == null ? null : UUID.fromString((String) createdHook.get("id"));
    calls.call("listWebhooks", () -> {
      List<Map<String, Object>> list = new ArrayList<>();
      for (Webhook w : webhooks.listWebhooks(null)) list.add(webhook(w));
      return list;
    });
    calls.call("getWebhook", () -> webhook(webhooks.getWebhook(webhookId, null)));
    calls.call("updateWebhook", () -> webhook(webhooks.updateWebhook(webhookId, new UpdateWebhookRequest()
        .events(List.of(WebhookEventType.SUBSCRIBER_CREATED, WebhookEventType.NOTIFICATION_IMPRESSIONS))
        .description("Java client, changed"), null)));
    Map<String, Object> ping = calls.call("pingWebhook", () -> delivery(webhooks.pingWebhook(webhookId, null)));
    UUID eventId = ping == null ? null : UUID.fromString((String) ping.get("eventId"));
    calls.call("listWebhookDeliveries", () -> {
      List<Map<String, Object>> list = new ArrayList<>();
      for (WebhookDelivery d : webhooks.listWebhookDeliveries(webhookId, null)) list.add(delivery(d));
      return list;
    });
    calls.call("redeliverWebhookEvent", () -> delivery(webhooks.redeliverWebhookEvent(webhookId, eventId, null)));
    calls.call("rotateWebhookSecret", () -> webhook(webhooks.rotateWebhookSecret(webhookId, null, new RotateWebhookSecretRequest().overlapHours(2))));
    calls.call("deleteWebhook", () -> {
      var deleted = webhooks.deleteWebhook(webhookId, null);
      return Map.of("id", String.valueOf(deleted.getId()), "deleted", deleted.getDeleted());
    });
    calls.call("getDeletedWebhook", () -> webhook(webhooks.getWebhook(webhookId, null)));

    out.put("calls", calls.results);
    System.out.println(OUT.writeValueAsString(out));
  }

  private static CreateCampaignRequest campaign(String title, CreateCampaignRequest.StatusEnum status, CreateCampaignRequest.ScheduleModeEnum mode, OffsetDateTime date) {
    return new CreateCampaignRequest()
        .title(title)
        .body("Sent by the generated Java client")
        .link("https://shop.example/java")
        .topics(List.of("news"))
        .status(status)
        .scheduleMode(mode)
        .scheduleDate(date)
        .ttl(3600)
        .utmSource("java");
  }

  private static ListCampaignsRequest copy(ListCampaignsRequest r) {
    return new ListCampaignsRequest().startDate(r.getStartDate()).endDate(r.getEndDate()).dateField(r.getDateField());
  }

  /** The fields the test looks at; dates as the OffsetDateTime the client parsed, and as an Instant. */
  private static Map<String, Object> campaign(Campaign c) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", String.valueOf(c.getId()));
    m.put("title", c.getTitle());
    m.put("status", String.valueOf(c.getStatus()));
    m.put("scheduleMode", String.valueOf(c.getScheduleMode()));
    m.put("scheduleDate", c.getScheduleDate() == null ? null : c.getScheduleDate().toInstant().toString());
    m.put("scheduleDateOffset", c.getScheduleDate() == null ? null : c.getScheduleDate().getOffset().getId());
    m.put("scheduleDateNanos", c.getScheduleDate() == null ? null : c.getScheduleDate().getNano());
    m.put("createdAt", c.getCreatedAt() == null ? null : c.getCreatedAt().toInstant().toString());
    m.put("topics", c.getTopics());
    m.put("ttl", c.getTtl());
    m.put("ttlUnit", String.valueOf(c.getTtlUnit()));
    m.put("utmSource", c.getUtmSource());
    m.put("analytics", c.getAnalytics() == null ? null : Map.of("totalUsers", c.getAnalytics().getTotalUsers()));
    return m;
  }

  private static Map<String, Object> page(CampaignPage p) {
    Map<String, Object> m = new LinkedHashMap<>();
    List<String> ids = new ArrayList<>();
    for (Campaign c : p.getItems()) ids.add(String.valueOf(c.getId()));
    m.put("ids", ids);
    m.put("limit", p.getLimit());
    m.put("hasMore", p.getHasMore());
    m.put("nextCursor", p.getNextCursor());
    return m;
  }

  private static Map<String, Object> report(ImportSubscribersReport r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("received", r.getReceived());
    m.put("imported", r.getImported());
    m.put("existing", r.getExisting());
    m.put("refused", r.getRefused());
    m.put("refusals", r.getRefusals().size());
    m.put("vapidPublicKey", r.getVapidPublicKey());
    return m;
  }

  /** The user's fields the test looks at; its subscriptions as their active flags. */
  private static Map<String, Object> user(User u) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("externalId", u.getExternalId());
    m.put("createdAt", instant(u.getCreatedAt()));
    List<Boolean> active = new ArrayList<>();
    for (var s : u.getSubscriptions()) active.add(s.getActive());
    m.put("subscriptionsActive", active);
    m.put("tags", u.getTags());
    return m;
  }

  /** A feed's fields the test looks at, as the client parsed them. */
  private static Map<String, Object> feed(Feed f) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", String.valueOf(f.getId()));
    m.put("url", f.getUrl());
    m.put("pollIntervalMinutes", f.getPollIntervalMinutes());
    m.put("paused", f.getPaused());
    m.put("topics", f.getTopics());
    return m;
  }

  /** An automation's fields the test looks at, as the client parsed them (a list has no results nor enrolments). */
  private static Map<String, Object> automation(Automation a) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", String.valueOf(a.getId()));
    m.put("name", a.getName());
    m.put("status", a.getStatus().getValue());
    m.put("trigger", Map.of("type", a.getTrigger().getType().getValue(), "name", a.getTrigger().getName()));
    List<Map<String, Object>> steps = new ArrayList<>();
    for (AutomationStep s : a.getSteps()) {
      Map<String, Object> step = new LinkedHashMap<>();
      step.put("delaySeconds", s.getDelaySeconds());
      step.put("templateId", String.valueOf(s.getTemplateId()));
      Map<String, Object> variables = new LinkedHashMap<>();
      s.getVariables().forEach((name, value) -> variables.put(name, value.getActualInstance()));
      step.put("variables", variables);
      if (s.getResults() != null) {
        Map<String, Object> results = new LinkedHashMap<>();
        results.put("sent", s.getResults().getSent());
        results.put("exits", s.getResults().getExits());
        results.put("impressions", s.getResults().getImpressions());
        results.put("clicks", s.getResults().getClicks());
        results.put("ctr", s.getResults().getCtr());
        step.put("results", results);
      }
      steps.add(step);
    }
    m.put("steps", steps);
    m.put("exitOn", Map.of("events", new ArrayList<>(a.getExitOn().getEvents())));
    // Null (no limit) reads as null here, and the output's mapper leaves nulls out.
    if (a.getThrottlePerMinute() != null) m.put("throttlePerMinute", a.getThrottlePerMinute());
    if (a.getEnrolments() != null) {
      m.put("enrolments", Map.of("active", a.getEnrolments().getActive(), "completed", a.getEnrolments().getCompleted(), "exited", a.getEnrolments().getExited()));
    }
    m.put("createdAt", instant(a.getCreatedAt()));
    return m;
  }

  /** A template's fields the test looks at, as the client parsed them. */
  private static Map<String, Object> template(Template t) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", String.valueOf(t.getId()));
    m.put("name", t.getName());
    m.put("version", t.getVersion());
    m.put("title", t.getTitle());
    m.put("body", t.getBody());
    m.put("link", t.getLink());
    List<Map<String, Object>> variables = new ArrayList<>();
    for (TemplateVariable v : t.getVariables()) variables.add(Map.of("name", v.getName(), "required", v.getRequired()));
    m.put("variables", variables);
    m.put("createdAt", instant(t.getCreatedAt()));
    return m;
  }

  private static Map<String, Object> rendered(RenderedTemplate r) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("template", Map.of("id", String.valueOf(r.getTemplate().getId()), "version", r.getTemplate().getVersion()));
    m.put("content", Map.of("title", r.getContent().getTitle(), "body", r.getContent().getBody(), "link", r.getContent().getLink()));
    return m;
  }

  /** The signature the site's server renders into the page: hex HMAC-SHA256 of the id, keyed with the secret (docs/people.md). */
  private static String hmacSha256Hex(String secret, String message) throws Exception {
    Mac mac = Mac.getInstance("HmacSHA256");
    mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
    return HexFormat.of().formatHex(mac.doFinal(message.getBytes(StandardCharsets.UTF_8)));
  }

  /** An endpoint's fields as the client parsed them; dates as Instants, null ones left out. */
  private static Map<String, Object> webhook(Webhook w) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", String.valueOf(w.getId()));
    m.put("url", w.getUrl());
    m.put("description", w.getDescription());
    List<String> events = new ArrayList<>();
    for (WebhookEventType e : w.getEvents()) events.add(e.getValue());
    m.put("events", events);
    m.put("enabled", w.getEnabled());
    m.put("disabledAt", instant(w.getDisabledAt()));
    m.put("disabledReason", w.getDisabledReason());
    m.put("failingSince", instant(w.getFailingSince()));
    m.put("previousSecretExpiresAt", instant(w.getPreviousSecretExpiresAt()));
    m.put("createdAt", instant(w.getCreatedAt()));
    return m;
  }

  /** The same, and whether the secret (shown once) has its documented form; never the secret itself. */
  private static Map<String, Object> webhook(WebhookWithSecret w) {
    Map<String, Object> m = webhook(new Webhook()
        .id(w.getId())
        .url(w.getUrl())
        .description(w.getDescription())
        .events(w.getEvents())
        .enabled(w.getEnabled())
        .disabledAt(w.getDisabledAt())
        .disabledReason(w.getDisabledReason())
        .failingSince(w.getFailingSince())
        .previousSecretExpiresAt(w.getPreviousSecretExpiresAt())
        .createdAt(w.getCreatedAt()));
    String secret = w.getSecret();
    m.put("secretWellFormed", secret != null && secret.matches("whsec_[A-Za-z0-9_-]{43}"));
    m.put("secretHash", secret == null ? null : Integer.toHexString(secret.hashCode()));
    return m;
  }

  private static Map<String, Object> delivery(WebhookDelivery d) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("eventId", String.valueOf(d.getEventId()));
    m.put("type", d.getType() == null ? null : d.getType().getValue());
    m.put("createdAt", instant(d.getCreatedAt()));
    m.put("state", d.getState() == null ? null : d.getState().getValue());
    m.put("attempts", d.getAttempts());
    m.put("nextAttemptAt", instant(d.getNextAttemptAt()));
    m.put("lastAttemptAt", instant(d.getLastAttemptAt()));
    m.put("lastStatus", d.getLastStatus());
    m.put("lastError", d.getLastError());
    return m;
  }

  private static String instant(OffsetDateTime date) {
    return date == null ? null : date.toInstant().toString();
  }

  private static List<Map<String, Object>> names(List<NameCount> list) {
    List<Map<String, Object>> out = new ArrayList<>();
    for (NameCount n : list) out.add(Map.of("name", n.getName(), "users", n.getUsers()));
    return out;
  }

  /** A `format: binary` answer (the YAML contract, the scripts, the CSV exports): the client saves it to a file. */
  private static Map<String, Object> head(File file) throws IOException {
    String text = null;
    if (file != null) {
      try {
        text = Files.readString(file.toPath());
      } finally {
        Files.deleteIfExists(file.toPath());
      }
    }
    return Map.of("length", text == null ? -1 : text.length(), "start", text == null ? "" : text.substring(0, Math.min(40, text.length())));
  }

  /** A browser-like push subscription: a fresh P-256 public key (uncompressed point) and 16 random auth bytes. */
  private static SubscribeRequestSubscription browserSubscription(String endpoint) throws Exception {
    KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
    generator.initialize(new ECGenParameterSpec("secp256r1"));
    ECPublicKey key = (ECPublicKey) generator.generateKeyPair().getPublic();
    byte[] point = new byte[65];
    point[0] = 4;
    copy32(key.getW().getAffineX(), point, 1);
    copy32(key.getW().getAffineY(), point, 33);
    byte[] auth = new byte[16];
    new SecureRandom().nextBytes(auth);
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    return new SubscribeRequestSubscription()
        .endpoint(endpoint)
        .keys(new SubscribeRequestSubscriptionKeys().p256dh(b64.encodeToString(point)).auth(b64.encodeToString(auth)));
  }

  private static void copy32(BigInteger n, byte[] to, int at) {
    byte[] b = n.toByteArray();
    int len = Math.min(b.length, 32);
    System.arraycopy(b, b.length - len, to, at + 32 - len, len);
  }

  /** The id as the answer gave it: a UUID, which the id parameters take. */
  private static UUID id(CreatedCampaign created) {
    return created == null ? null : created.getId();
  }

  private CallEveryOperation() {}
}
