// Calls every operation of gateway/openapi/openapi.yaml through the Go client that OpenAPI
// Generator's CLI made from it (generator `go`, package campaigns), as a customer's program
// would, and prints one JSON line: each step's status, X-Request-Id, Location and body.
// test/e2e/generated-cli-clients.test.ts generates the package, builds this with Debian's Go in
// GOPATH mode and runs it against the real stack (the same steps as the Python and
// typescript-fetch programs):
//
//	call-every-operation '<json arguments>'
package main

import (
	"campaigns"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
)

type args struct {
	Origin         string `json:"origin"`
	Key            string `json:"key"`
	PublicID       string `json:"publicId"`
	Token          string `json:"token"`
	RunID          string `json:"runId"`
	EndpointA      string `json:"endpointA"`
	EndpointB      string `json:"endpointB"`
	EndpointImport string `json:"endpointImport"`
	ExternalID     string `json:"externalId"`
	Signature      string `json:"signature"`
	P256dh         string `json:"p256dh"`
	Auth           string `json:"auth"`
}

type step struct {
	Operation string      `json:"operation"`
	Status    *int        `json:"status"`
	Ok        bool        `json:"ok"`
	Body      interface{} `json:"body,omitempty"`
	RequestID string      `json:"requestId,omitempty"`
	Location  string      `json:"location,omitempty"`
	Error     string      `json:"error,omitempty"`
}

var steps = map[string]step{}

// record notes what one call answered: its value (a model, or a file for `format: binary`), or
// the error status and body the client reported.
func record(name, operation string, value interface{}, res *http.Response, err error) {
	s := step{Operation: operation}
	if res != nil {
		status := res.StatusCode
		s.Status = &status
		s.RequestID = res.Header.Get("X-Request-Id")
		s.Location = res.Header.Get("Location")
	}
	var apiErr *campaigns.GenericOpenAPIError
	switch {
	case err == nil:
		s.Ok = true
		if f, ok := value.(*os.File); ok { // CSV, NDJSON, YAML, JavaScript: a temporary file
			text, _ := io.ReadAll(f)
			f.Close()
			os.Remove(f.Name())
			s.Body = string(text)
		} else {
			raw, _ := json.Marshal(value)
			_ = json.Unmarshal(raw, &s.Body)
		}
	case errors.As(err, &apiErr) && res != nil && res.StatusCode >= 300:
		if json.Unmarshal(apiErr.Body(), &s.Body) != nil {
			s.Body = string(apiErr.Body())
		}
	default: // the client itself failed (e.g. it could not read a valid answer)
		s.Status = nil
		s.Error = err.Error()
	}
	steps[name] = s
}

// model builds a request model from its JSON, as the generated models read it.
func model[T any](text string) T {
	var m T
	if err := json.Unmarshal([]byte(text), &m); err != nil {
		panic(fmt.Sprintf("%T: %v", m, err))
	}
	return m
}

func newClient(origin string, httpClient *http.Client) *campaigns.APIClient {
	cfg := campaigns.NewConfiguration()
	cfg.Servers = campaigns.ServerConfigurations{{URL: origin}}
	cfg.HTTPClient = httpClient
	return campaigns.NewAPIClient(cfg)
}

func main() {
	var a args
	if err := json.Unmarshal([]byte(os.Args[1]), &a); err != nil {
		panic(err)
	}
	ctx := context.WithValue(context.Background(), campaigns.ContextAPIKeys, map[string]campaigns.APIKey{"apiKey": {Key: a.Key}})
	c := newClient(a.Origin, http.DefaultClient)
	// A program that wants a redirect's Location, not its target: net/http follows redirects unless told.
	noRedirects := newClient(a.Origin, &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }})
	keys := fmt.Sprintf(`{"p256dh":%q,"auth":%q}`, a.P256dh, a.Auth)

	v, r, err := c.ContractAPI.GetOpenApiJson(ctx).Execute()
	record("getOpenApiJson", "getOpenApiJson", v, r, err)
	f, r, err := c.ContractAPI.GetOpenApiYaml(ctx).Execute()
	record("getOpenApiYaml", "getOpenApiYaml", f, r, err)
	f, r, err = c.SitePluginAPI.GetSnippet(ctx).Execute()
	record("getSnippet", "getSnippet", f, r, err)
	f, r, err = c.SitePluginAPI.GetServiceWorker(ctx).Execute()
	record("getServiceWorker", "getServiceWorker", f, r, err)
	f, r, err = c.SitePluginAPI.GetPromptScript(ctx).Execute()
	record("getPromptScript", "getPromptScript", f, r, err)
	config, r, err := c.SitePluginAPI.GetSiteConfig(ctx, a.PublicID).Execute()
	record("getSiteConfig", "getSiteConfig", config, r, err)
	sub, r, err := c.SitePluginAPI.Subscribe(ctx, a.PublicID).SubscribeRequest(model[campaigns.SubscribeRequest](fmt.Sprintf(
		`{"subscription":{"endpoint":%q,"expirationTime":null,"keys":%s},"topics":["news"],"language":"en-US","timeZone":"UTC"}`, a.EndpointA, keys))).Execute()
	record("subscribe", "subscribe", sub, r, err)
	view, r, err := c.SitePluginAPI.RecordPageView(ctx, a.PublicID).PageViewRequest(model[campaigns.PageViewRequest](fmt.Sprintf(`{"endpoint":%q,"topics":["sports"]}`, a.EndpointA))).Execute()
	record("recordPageView", "recordPageView", view, r, err)
	sub, r, err = c.SitePluginAPI.Subscribe(ctx, a.PublicID).SubscribeRequest(model[campaigns.SubscribeRequest](fmt.Sprintf(
		`{"subscription":{"endpoint":%q,"expirationTime":null,"keys":%s},"topics":[]}`, a.EndpointB, keys))).Execute()
	record("subscribeSuccessor", "subscribe", sub, r, err)
	change, r, err := c.SitePluginAPI.RecordSubscriptionChange(ctx, a.PublicID).SubscriptionChangeRequest(model[campaigns.SubscriptionChangeRequest](fmt.Sprintf(`{"oldEndpoint":%q,"endpoint":%q}`, a.EndpointA, a.EndpointB))).Execute()
	record("recordSubscriptionChange", "recordSubscriptionChange", change, r, err)
	gone, r, err := c.SitePluginAPI.Unsubscribe(ctx, a.PublicID).UnsubscribeRequest(model[campaigns.UnsubscribeRequest](fmt.Sprintf(`{"endpoint":%q}`, a.EndpointA))).Execute()
	record("unsubscribe", "unsubscribe", gone, r, err)
	counted, r, err := c.SitePluginAPI.RecordOptInEvent(ctx, a.PublicID).OptInEventRequest(model[campaigns.OptInEventRequest](`{"event":"shown","promptId":"slide-down"}`)).Execute()
	record("recordOptInEvent", "recordOptInEvent", counted, r, err)

	names, r, err := c.AudienceAPI.ListTopics(ctx).Execute()
	record("listTopics", "listTopics", names, r, err)
	names, r, err = c.AudienceAPI.ListCountries(ctx).Execute()
	record("listCountries", "listCountries", names, r, err)
	funnel, r, err := c.AudienceAPI.GetOptInFunnel(ctx).Prompt("slide-down").Execute()
	record("getOptInFunnel", "getOptInFunnel", funnel, r, err)
	imported, r, err := c.AudienceAPI.ImportSubscribers(ctx).ImportSubscribersRequest(model[campaigns.ImportSubscribersRequest](fmt.Sprintf(
		`{"subscriptions":[{"endpoint":%q,"keys":%s,"topics":["imported"],"country":"PT","createdAt":"2025-06-01T12:00:00Z"}]}`, a.EndpointImport, keys))).Execute()
	record("importSubscribers", "importSubscribers", imported, r, err)
	f, r, err = c.AudienceAPI.ExportSubscribers(ctx).Format("csv").Topics("imported").Execute()
	record("exportSubscribers", "exportSubscribers", f, r, err)

	// People: the page identifies the browser (the signature made by the site's server) and sets
	// the visitor's `lang`; the server reads, tags and exports the user; the page logs out; the
	// server deletes the user (the logged-out subscription stays).
	identified, r, err := c.SitePluginAPI.IdentifySubscription(ctx, a.PublicID).IdentifyRequest(model[campaigns.IdentifyRequest](fmt.Sprintf(
		`{"endpoint":%q,"externalId":%q,"signature":%q}`, a.EndpointB, a.ExternalID, a.Signature))).Execute()
	record("identifySubscription", "identifySubscription", identified, r, err)
	tagged, r, err := c.SitePluginAPI.TagVisitor(ctx, a.PublicID).VisitorTagsRequest(model[campaigns.VisitorTagsRequest](fmt.Sprintf(`{"endpoint":%q,"tags":{"lang":"pt"}}`, a.EndpointB))).Execute()
	record("tagVisitor", "tagVisitor", tagged, r, err)
	user, r, err := c.UsersAPI.GetUser(ctx, a.ExternalID).Execute()
	record("getUser", "getUser", user, r, err)
	user, r, err = c.UsersAPI.UpdateUser(ctx, a.ExternalID).UpdateUserRequest(model[campaigns.UpdateUserRequest](`{"tags":{"plan":"gold","score":7,"signed_up_at":"2026-01-15"}}`)).Execute()
	record("updateUser", "updateUser", user, r, err)
	everything, r, err := c.UsersAPI.ExportUser(ctx, a.ExternalID).Execute()
	record("exportUser", "exportUser", everything, r, err)
	unlinked, r, err := c.SitePluginAPI.ForgetSubscriptionIdentity(ctx, a.PublicID).UnsubscribeRequest(model[campaigns.UnsubscribeRequest](fmt.Sprintf(`{"endpoint":%q}`, a.EndpointB))).Execute()
	record("forgetSubscriptionIdentity", "forgetSubscriptionIdentity", unlinked, r, err)
	gonePerson, r, err := c.UsersAPI.DeleteUser(ctx, a.ExternalID).Execute()
	record("deleteUser", "deleteUser", gonePerson, r, err)
	user, r, err = c.UsersAPI.GetUser(ctx, a.ExternalID).Execute()
	record("getDeletedUser", "getUser", user, r, err)

	created, r, err := c.CampaignsAPI.CreateCampaign(ctx).CreateCampaignRequest(model[campaigns.CreateCampaignRequest](
		`{"title":"Go client","body":"Sent through the generated Go client","link":"https://shop.example/go","topics":["news"],"status":"published",
		  "scheduleMode":"scheduled","scheduleDate":"2031-06-01T10:30:00Z","ignoreFrequencyCap":true,"utmSource":"go"}`)).
		IdempotencyKey("go-" + a.RunID).XRequestId("go-create-" + a.RunID).Execute()
	record("createCampaign", "createCampaign", created, r, err)
	id := created.GetId()
	got, r, err := c.CampaignsAPI.GetCampaign(ctx, id).Execute()
	record("getCampaign", "getCampaign", got, r, err)
	filters := `{"startDate":"2031-06-01T00:00:00+00:00","endDate":"2031-06-30T23:59:59Z","dateField":"scheduleDate","status":["scheduled"]}`
	page, r, err := c.CampaignsAPI.ListCampaigns(ctx).ListCampaignsRequest(model[campaigns.ListCampaignsRequest](filters)).Execute()
	record("listCampaigns", "listCampaigns", page, r, err)
	f, r, err = c.CampaignsAPI.ExportCampaigns(ctx).Format("ndjson").ListCampaignsRequest(model[campaigns.ListCampaignsRequest](filters)).Execute()
	record("exportCampaigns", "exportCampaigns", f, r, err)
	plan, r, err := c.CampaignsAPI.PlanCampaignPreview(ctx).PlanPreviewRequest(model[campaigns.PlanPreviewRequest](`{"topics":["news"],"sendTime":{"mode":"bestTime","within":"3h","holdout":20}}`)).Execute()
	record("planCampaignPreview", "planCampaignPreview", plan, r, err)
	winner, r, err := c.CampaignsAPI.PickCampaignWinner(ctx, id).PickWinnerRequest(model[campaigns.PickWinnerRequest](`{"variant":1}`)).Execute()
	record("pickCampaignWinner", "pickCampaignWinner", winner, r, err)
	revised, r, err := c.CampaignsAPI.UpdateCampaign(ctx, id).CampaignUpdateRequest(model[campaigns.CampaignUpdateRequest](`{"title":"Corrected title"}`)).Execute()
	record("updateCampaign", "updateCampaign", revised, r, err)
	revised, r, err = c.CampaignsAPI.RecallCampaign(ctx, id).Execute()
	record("recallCampaign", "recallCampaign", revised, r, err)
	deleted, r, err := c.CampaignsAPI.DeleteCampaign(ctx, id).Execute()
	record("deleteCampaign", "deleteCampaign", deleted, r, err)
	got, r, err = c.CampaignsAPI.GetCampaign(ctx, id).Execute()
	record("getDeletedCampaign", "getCampaign", got, r, err)

	// Templates: save one, list, read, change its body (version 2), render it with a visitor's
	// values, delete it; then reading it answers 404.
	template, r, err := c.TemplatesAPI.CreateTemplate(ctx).CreateTemplateRequest(model[campaigns.CreateTemplateRequest](fmt.Sprintf(
		`{"name":"Back in stock %s","title":"Hi {{ first_name | \"there\" }}","body":"Your {{ product }} is back","link":"https://shop.example/p/{{ product_id }}"}`, a.RunID))).Execute()
	record("createTemplate", "createTemplate", template, r, err)
	templateID := template.GetId()
	templatePage, r, err := c.TemplatesAPI.ListTemplates(ctx).Limit(10).Execute()
	record("listTemplates", "listTemplates", templatePage, r, err)
	template, r, err = c.TemplatesAPI.GetTemplate(ctx, templateID).Execute()
	record("getTemplate", "getTemplate", template, r, err)
	template, r, err = c.TemplatesAPI.UpdateTemplate(ctx, templateID).UpdateTemplateRequest(model[campaigns.UpdateTemplateRequest](`{"body":"Only {{ left | \"a few\" }} {{ product }} left"}`)).Execute()
	record("updateTemplate", "updateTemplate", template, r, err)
	rendered, r, err := c.TemplatesAPI.RenderTemplate(ctx, templateID).RenderTemplateRequest(model[campaigns.RenderTemplateRequest](
		`{"variables":{"first_name":"Ana","product":"red boots","product_id":"b/42","left":3}}`)).Execute()
	record("renderTemplate", "renderTemplate", rendered, r, err)
	// Automations: an abandoned cart's reminder an hour later through the template, cancelled by
	// the checkout; list, the person's event (202: they are enrolled), read it with its
	// enrolments, pause, delete; then reading it answers 404 (before the template goes).
	automation, r, err := c.AutomationsAPI.CreateAutomation(ctx).CreateAutomationRequest(model[campaigns.CreateAutomationRequest](fmt.Sprintf(
		`{"name":"Abandoned cart %s","trigger":{"type":"event","name":"cart_abandoned"},"steps":[{"delaySeconds":3600,"templateId":"%s","variables":{"first_name":"there"}}],"exitOn":{"events":["checkout_completed"]}}`,
		a.RunID, templateID))).XRequestId("go-automation-" + a.RunID).Execute()
	record("createAutomation", "createAutomation", automation, r, err)
	automationID := automation.GetId()
	automationPage, r, err := c.AutomationsAPI.ListAutomations(ctx).Limit(10).Execute()
	record("listAutomations", "listAutomations", automationPage, r, err)
	event, r, err := c.AutomationsAPI.RecordEvent(ctx).EventRequest(model[campaigns.EventRequest](fmt.Sprintf(
		`{"externalId":%q,"name":"cart_abandoned","properties":{"product":"red boots","total":89.9}}`, a.ExternalID))).
		IdempotencyKey("go-event-" + a.RunID).Execute()
	record("recordEvent", "recordEvent", event, r, err)
	automation, r, err = c.AutomationsAPI.GetAutomation(ctx, automationID).Execute()
	record("getAutomation", "getAutomation", automation, r, err)
	automation, r, err = c.AutomationsAPI.UpdateAutomation(ctx, automationID).UpdateAutomationRequest(model[campaigns.UpdateAutomationRequest](`{"status":"paused"}`)).Execute()
	record("updateAutomation", "updateAutomation", automation, r, err)
	removedAutomation, r, err := c.AutomationsAPI.DeleteAutomation(ctx, automationID).Execute()
	record("deleteAutomation", "deleteAutomation", removedAutomation, r, err)
	automation, r, err = c.AutomationsAPI.GetAutomation(ctx, automationID).Execute()
	record("getDeletedAutomation", "getAutomation", automation, r, err)

	removedTemplate, r, err := c.TemplatesAPI.DeleteTemplate(ctx, templateID).Execute()
	record("deleteTemplate", "deleteTemplate", removedTemplate, r, err)
	template, r, err = c.TemplatesAPI.GetTemplate(ctx, templateID).Execute()
	record("getDeletedTemplate", "getTemplate", template, r, err)

	notified, r, err := c.NotificationsAPI.CreateNotification(ctx).CreateNotificationRequest(model[campaigns.CreateNotificationRequest](
		`{"subscriptionIds":["00000000-0000-4000-8000-000000000001"],"title":"Your order shipped","body":"Sent through the generated Go client","link":"https://shop.example/orders/1"}`)).
		IdempotencyKey("go-notify-" + a.RunID).Execute()
	record("createNotification", "createNotification", notified, r, err)
	notification, r, err := c.NotificationsAPI.GetNotification(ctx, notified.GetId()).Execute()
	record("getNotification", "getNotification", notification, r, err)
	notifications, r, err := c.NotificationsAPI.ListNotifications(ctx).Limit(10).Execute()
	record("listNotifications", "listNotifications", notifications, r, err)

	// Feeds: add one at a name that need not resolve (its polls fail and say so), list, read,
	// pause it, delete it; then reading it answers 404.
	feed, r, err := c.FeedsAPI.CreateFeed(ctx).CreateFeedRequest(model[campaigns.CreateFeedRequest](fmt.Sprintf(
		`{"url":"https://feeds.example.com/%s.xml","topics":["news"],"utmSource":"feed"}`, a.RunID))).Execute()
	record("createFeed", "createFeed", feed, r, err)
	feedID := feed.GetId()
	feedPage, r, err := c.FeedsAPI.ListFeeds(ctx).Limit(10).Execute()
	record("listFeeds", "listFeeds", feedPage, r, err)
	feed, r, err = c.FeedsAPI.GetFeed(ctx, feedID).Execute()
	record("getFeed", "getFeed", feed, r, err)
	feed, r, err = c.FeedsAPI.UpdateFeed(ctx, feedID).UpdateFeedRequest(model[campaigns.UpdateFeedRequest](`{"paused":true,"pollIntervalMinutes":60}`)).Execute()
	record("updateFeed", "updateFeed", feed, r, err)
	removedFeed, r, err := c.FeedsAPI.DeleteFeed(ctx, feedID).Execute()
	record("deleteFeed", "deleteFeed", removedFeed, r, err)
	feed, r, err = c.FeedsAPI.GetFeed(ctx, feedID).Execute()
	record("getDeletedFeed", "getFeed", feed, r, err)

	hook, r, err := c.WebhooksAPI.CreateWebhook(ctx).CreateWebhookRequest(model[campaigns.CreateWebhookRequest](
		`{"url":"https://hooks.example.com/go","events":["subscriber.created","notification.clicks"],"description":"Go client"}`)).Execute()
	record("createWebhook", "createWebhook", hook, r, err)
	hookID := hook.GetId()
	hooks, r, err := c.WebhooksAPI.ListWebhooks(ctx).Execute()
	record("listWebhooks", "listWebhooks", hooks, r, err)
	one, r, err := c.WebhooksAPI.GetWebhook(ctx, hookID).Execute()
	record("getWebhook", "getWebhook", one, r, err)
	one, r, err = c.WebhooksAPI.UpdateWebhook(ctx, hookID).UpdateWebhookRequest(model[campaigns.UpdateWebhookRequest](`{"description":"Go client, changed"}`)).Execute()
	record("updateWebhook", "updateWebhook", one, r, err)
	ping, r, err := c.WebhooksAPI.PingWebhook(ctx, hookID).Execute()
	record("pingWebhook", "pingWebhook", ping, r, err)
	deliveries, r, err := c.WebhooksAPI.ListWebhookDeliveries(ctx, hookID).Execute()
	record("listWebhookDeliveries", "listWebhookDeliveries", deliveries, r, err)
	again, r, err := c.WebhooksAPI.RedeliverWebhookEvent(ctx, hookID, ping.GetEventId()).Execute()
	record("redeliverWebhookEvent", "redeliverWebhookEvent", again, r, err)
	rotated, r, err := c.WebhooksAPI.RotateWebhookSecret(ctx, hookID).RotateWebhookSecretRequest(model[campaigns.RotateWebhookSecretRequest](`{"overlapHours":1}`)).Execute()
	record("rotateWebhookSecret", "rotateWebhookSecret", rotated, r, err)
	removed, r, err := c.WebhooksAPI.DeleteWebhook(ctx, hookID).Execute()
	record("deleteWebhook", "deleteWebhook", removed, r, err)

	accepted, r, err := c.SitePluginAPI.ReportEvent(ctx).ReportEventRequest(model[campaigns.ReportEventRequest](fmt.Sprintf(`{"type":"impression","token":%q}`, a.Token))).Execute()
	record("reportEvent", "reportEvent", accepted, r, err)
	r, err = noRedirects.SitePluginAPI.ClickRedirect(ctx, a.Token).Execute()
	record("clickRedirect", "clickRedirect", nil, r, err)

	out, _ := json.Marshal(map[string]interface{}{"runId": a.RunID, "steps": steps})
	fmt.Println(string(out))
}
