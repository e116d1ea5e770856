package example.campaigns;

import example.campaigns.client.ApiClient;
import example.campaigns.client.ApiException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Runs the calls one by one and records what each answered. */
final class Calls {
  /** A call through the generated client. */
  interface Call<T> {
    T run() throws Exception;
  }

  final Map<String, Map<String, Object>> results = new LinkedHashMap<>();
  private int lastStatus;
  private String lastRequestId;

  /**
   * Points a generated client at the deployment: base URI, bounded timeouts, the API key on
   * /v2 calls (library `native` generates no authentication: a request interceptor adds it),
   * and a response interceptor that notes the status and X-Request-Id of every answer.
   */
  ApiClient attach(ApiClient client, String baseUrl, String apiKey) {
    client.updateBaseUri(baseUrl);
    client.setConnectTimeout(Duration.ofSeconds(10));
    client.setReadTimeout(Duration.ofSeconds(15));
    client.setRequestInterceptor(builder -> {
      if (builder.copy().build().uri().getPath().startsWith("/v2/")) builder.header("Authorization", apiKey);
    });
    client.setResponseInterceptor(response -> {
      lastStatus = response.statusCode();
      lastRequestId = response.headers().firstValue("x-request-id").orElse(null);
    });
    return client;
  }

  <T> T call(String name, Call<T> call) {
    lastStatus = 0;
    lastRequestId = null;
    Map<String, Object> result = new LinkedHashMap<>();
    results.put(name, result);
    try {
      T value = call.run();
      result.put("status", lastStatus);
      result.put("requestId", lastRequestId);
      result.put("ok", true);
      result.put("value", value);
      return value;
    } catch (ApiException e) {
      // A non-2xx answer (getCode() is its status), or a body the client could not decode
      // (getCode() is 0: the status is the one the interceptor saw).
      result.put("status", e.getCode() != 0 ? e.getCode() : lastStatus);
      result.put("requestId", lastRequestId);
      result.put("ok", false);
      result.put("error", describe(e));
      result.put("body", e.getResponseBody());
      return null;
    } catch (Exception e) {
      result.put("status", lastStatus);
      result.put("ok", false);
      result.put("error", describe(e));
      return null;
    }
  }

  Object lastValue(String name) {
    Map<String, Object> result = results.get(name);
    return result == null ? null : result.get("value");
  }

  private static String describe(Throwable e) {
    StringBuilder text = new StringBuilder();
    for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
      if (text.length() > 0) text.append(" <- ");
      String message = String.valueOf(t.getMessage());
      text.append(t.getClass().getSimpleName()).append(": ").append(message, 0, Math.min(message.length(), 200));
    }
    return text.toString();
  }
}
