package dev.svc.chat.bench.search;

import com.fasterxml.jackson.databind.JsonNode;
import dev.svc.chat.bench.support.LoadAverage;
import dev.svc.chat.bench.support.Report;
import dev.svc.chat.reference.ReferenceServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The reference server's message search (contract section 11) over a large store: {@code GET /v1/search/messages}
 * latency on SQLite with its Lucene index ({@code --data-dir}) and on PostgreSQL with its full-text index (the cluster
 * backend), and the index's size. Each backend is filled in process through the store and index classes the
 * server composes ({@link SearchLoad}), then served by a {@link ReferenceServer} started on that data; the queries
 * ({@link SearchQueries}) are sent one at a time over HTTP with a session token, after a warm-up, in rounds.
 *
 * <p>Arguments: {@code --messages N} (1,000,000), {@code --rooms R} (1,000), {@code --queries Q} (1,000),
 * {@code --rounds K} (3), {@code --warmup W} (300), {@code --threads T} (load threads, 2), {@code --backends}
 * ({@code h2,postgres}), {@code --explain} (PostgreSQL's plans of the server's statements for a common, a middling
 * and a rare word, to standard error).
 */
public final class ServerSearchBenchmark {
  static final double TARGET_P99_MS = 50;

  /**
   * One backend's figures.
   *
   * @param backend what ran
   * @param ms the query times of each round, in the queries' order
   * @param results the results of each query (of the first round)
   */
  record Outcome(SearchBackend backend, double[][] ms, int[] results) {
  }

  private ServerSearchBenchmark() {
  }

  public static void main(String[] args) throws Exception {
    int messages = Integer.parseInt(Report.option(args, "--messages", "1000000"));
    int rooms = Integer.parseInt(Report.option(args, "--rooms", "1000"));
    int count = Integer.parseInt(Report.option(args, "--queries", "1000"));
    int rounds = Integer.parseInt(Report.option(args, "--rounds", "3"));
    int warmup = Integer.parseInt(Report.option(args, "--warmup", "300"));
    int threads = Integer.parseInt(Report.option(args, "--threads", "2"));
    List<String> backends = Arrays.asList(Report.option(args, "--backends", "h2,postgres").split(","));
    boolean explain = Arrays.asList(args).contains("--explain");
    String loadBefore = LoadAverage.now();
    long started = System.nanoTime();
    Path work = Files.createTempDirectory("svc-search-bench-");
    SearchCorpus corpus = new SearchCorpus(7);
    List<Outcome> outcomes = new ArrayList<>();
    try {
      for (String name : backends) {
        SearchBackend backend = switch (name) {
          case "h2" -> new SearchBackend.H2(work);
          case "postgres" -> new SearchBackend.Postgres(LocalPostgres.start());
          default -> throw new IllegalArgumentException("--backends: h2 or postgres, not " + name);
        };
        try (backend) {
          System.err.printf("== %s: loading %,d messages in %,d rooms%n", backend.name, messages, rooms);
          backend.load(corpus, rooms, messages, threads);
          System.err.printf("   loaded in %.0f s%n", backend.layout.seconds());
          try (ReferenceServer server = backend.start()) {
            System.err.printf("   index built by the server's start in %.0f s%n", backend.indexSeconds);
            backend.settle();
            outcomes.add(measure(backend, server, corpus, count, rounds, warmup));
          }
          backend.measure();
          System.err.printf("   sizes %s%n", backend.sizes);
          if (explain && backend instanceof SearchBackend.Postgres pg) {
            for (int rank : new int[] {0, 300, SearchCorpus.RARE_FROM + 5000}) {
              System.err.printf("   plan of the word of rank %d:%n", rank);
              pg.explain(corpus.word(rank), backend.layout.searcherRooms());
            }
          }
        }
      }
    } finally {
      LocalPostgres.delete(work.toFile());
    }
    ServerSearchReport.write(args, outcomes, corpus, messages, rooms, count, rounds, warmup, loadBefore, LoadAverage.now(),
        (System.nanoTime() - started) / 1e9);
    System.exit(0);
  }

  private static Outcome measure(SearchBackend backend, ReferenceServer server, SearchCorpus corpus, int count,
                                 int rounds, int warmup) throws Exception {
    List<String> mine = backend.layout.searcherRooms();
    Set<String> current = new HashSet<>(mine);
    SearchQueries client = new SearchQueries(server.apiUrl());
    client.login(SearchBackend.API_KEY, SearchLoad.SEARCHER);
    for (SearchQueries.Query q : SearchQueries.make(corpus, mine, warmup, 99)) {
      client.run(q);
    }
    List<SearchQueries.Query> queries = SearchQueries.make(corpus, mine, count, 17);
    double[][] ms = new double[rounds][count];
    int[] results = new int[count];
    for (int round = 0; round < rounds; round++) {
      for (int i = 0; i < count; i++) {
        long t0 = System.nanoTime();
        JsonNode page = client.run(queries.get(i));
        ms[round][i] = (System.nanoTime() - t0) / 1e6;
        if (round == 0) {
          results[i] = page.size();
          // the searcher's current rooms only (contract section 11): a benchmark of a wrong answer is worthless
          for (JsonNode result : page) {
            String room = result.get("message").get("roomId").asText();
            if (!current.contains(room)) {
              throw new IllegalStateException(queries.get(i) + " found a message of room " + room
                  + ", not one of the searcher's");
            }
          }
        }
      }
      System.err.printf("   round %d: p50 %.2f ms, p99 %.2f ms, max %.2f ms%n", round + 1,
          Report.percentile(ms[round], 50), Report.percentile(ms[round], 99), Report.percentile(ms[round], 100));
    }
    return new Outcome(backend, ms, results);
  }

}
