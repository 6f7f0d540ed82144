package dev.svc.chat.bench.search;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.text.Normalizer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * The server search benchmark's queries and their client: a seeded mix of kinds in turn (the commonest words, two
 * words, a phrase of two, a prefix, a rare word), every third narrowed to one of the searcher's rooms, some typed
 * without their accents or capitalised (matching folds both); sent one at a time to
 * {@code GET /v1/search/messages} with a session token over the JDK's HTTP client.
 */
final class SearchQueries {
  static final String[] KINDS = {"one common word", "two words", "a phrase of two words", "a prefix (3 letters*)",
      "a rare word"};

  /**
   * One query.
   *
   * @param kind its index in {@link #KINDS}
   * @param q the text
   * @param roomId the room it is narrowed to, or null
   */
  record Query(int kind, String q, String roomId) {
  }

  private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
      .connectTimeout(Duration.ofSeconds(10)).build();
  private final ObjectMapper json = new ObjectMapper();
  private final String apiUrl;
  private String token;

  SearchQueries(String apiUrl) {
    this.apiUrl = apiUrl;
  }

  static List<Query> make(SearchCorpus corpus, List<String> rooms, int count, long seed) {
    Random random = new Random(seed);
    List<Query> out = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      int kind = i % KINDS.length;
      String q = switch (kind) {
        case 0 -> typed(corpus.word(random.nextInt(10)), random);
        case 1 -> typed(corpus.draw(random), random) + " " + typed(corpus.draw(random), random);
        case 2 -> "\"" + corpus.draw(random) + " " + corpus.draw(random) + "\"";
        case 3 -> {
          String w = corpus.draw(random);
          yield w.substring(0, Math.min(3, w.length())) + "*";
        }
        default -> typed(corpus.word(SearchCorpus.RARE_FROM + random.nextInt(SearchCorpus.SIZE
            - SearchCorpus.RARE_FROM)), random);
      };
      // every third (over the kinds in turn: each kind has its share) in one room
      String room = (i / KINDS.length) % 3 == 2 ? rooms.get(random.nextInt(rooms.size())) : null;
      out.add(new Query(kind, q, room));
    }
    return out;
  }

  /** The word as typed: mostly as is, sometimes without accents or capitalised. */
  private static String typed(String word, Random random) {
    return switch (random.nextInt(6)) {
      case 0 -> Normalizer.normalize(word, Normalizer.Form.NFD).replaceAll("\\p{M}", "");
      case 1 -> Character.toUpperCase(word.charAt(0)) + word.substring(1);
      default -> word;
    };
  }

  /** Mints the user's session token with the tenant's API key. */
  void login(String apiKey, String userId) throws IOException, InterruptedException {
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(apiUrl + "/auth/token"))
        .header("x-api-key", apiKey).header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json.writeValueAsString(Map.of("userId", userId)))).build(),
        HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) throw new IOException("token: " + r.statusCode() + " " + r.body());
    token = json.readTree(r.body()).get("token").asText();
  }

  /** Runs the query; returns the results of its first page (a page of 20, the default). */
  JsonNode run(Query query) throws IOException, InterruptedException {
    String url = apiUrl + "/search/messages?q=" + URLEncoder.encode(query.q(), StandardCharsets.UTF_8)
        + (query.roomId() != null ? "&roomId=" + query.roomId() : "");
    HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(url)).header("Authorization",
        "Bearer " + token).GET().build(), HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) throw new IOException(query + ": " + r.statusCode() + " " + r.body());
    return json.readTree(r.body()).get("results");
  }
}
