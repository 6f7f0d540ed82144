package dev.svc.chat.bench.search;

import java.util.Random;

/**
 * The server search benchmark's text: a seeded vocabulary of made-up words of a few syllables, drawn with a
 * Zipf-like frequency (the word of rank r about as often as 1 / r, so the first ones are in a large share of
 * the messages and the last ones in a handful), one word in twelve with an accented letter. The same seed
 * gives the same words, messages and queries on every backend.
 */
final class SearchCorpus {
  /** The vocabulary's size; ranks from {@link #RARE_FROM} on are in a few dozen messages of a million. */
  static final int SIZE = 30_000;
  static final int RARE_FROM = 20_000;

  private static final String[] ONSETS = {"b", "d", "f", "g", "k", "l", "m", "n", "p", "r", "s", "t", "v", "z",
      "br", "tr", "st", "ch", "gl", "pl"};
  private static final String[] VOWELS = {"a", "e", "i", "o", "u", "ai", "ou", "ea"};
  private static final String[] ACCENTED = {"é", "è", "ü", "ö", "à", "ñ"};

  private final String[] words = new String[SIZE];
  /** The cumulative weights of the ranks (1 / (r + 1)), for drawing by binary search. */
  private final double[] cumulative = new double[SIZE];

  SearchCorpus(long seed) {
    Random random = new Random(seed);
    java.util.Set<String> seen = new java.util.HashSet<>();
    for (int i = 0; i < SIZE; i++) {
      String w;
      do {
        StringBuilder b = new StringBuilder();
        // the commonest words are short, as in speech
        int syllables = i < 50 ? 1 + random.nextInt(2) : 2 + random.nextInt(3);
        for (int s = 0; s < syllables; s++) {
          b.append(ONSETS[random.nextInt(ONSETS.length)]).append(VOWELS[random.nextInt(VOWELS.length)]);
        }
        if (random.nextInt(3) == 0) b.append(ONSETS[random.nextInt(10)]);
        if (random.nextInt(12) == 0) {
          int at = b.length() - 1 - random.nextInt(Math.max(1, b.length() - 1));
          b.replace(at, at + 1, ACCENTED[random.nextInt(ACCENTED.length)]);
        }
        w = b.toString();
      } while (!seen.add(java.text.Normalizer.normalize(w, java.text.Normalizer.Form.NFD)
          .replaceAll("\\p{M}", "")));
      words[i] = w;
    }
    double sum = 0;
    for (int i = 0; i < SIZE; i++) {
      sum += 1.0 / (i + 1);
      cumulative[i] = sum;
    }
  }

  String word(int rank) {
    return words[rank];
  }

  /** A word drawn with the Zipf-like frequency. */
  String draw(Random random) {
    double x = random.nextDouble() * cumulative[SIZE - 1];
    int i = java.util.Arrays.binarySearch(cumulative, x);
    return words[Math.min(SIZE - 1, i < 0 ? -i - 1 : i)];
  }

  /** The share of the words that rank r takes, for the section's description. */
  double share(int rank) {
    return (1.0 / (rank + 1)) / cumulative[SIZE - 1];
  }

  /** A message: 6 to 24 words, a sentence with a capital and commas. */
  String text(Random random) {
    int n = 6 + random.nextInt(19);
    StringBuilder out = new StringBuilder();
    for (int i = 0; i < n; i++) {
      if (i > 0) out.append(i % 7 == 0 ? ", " : " ");
      String w = draw(random);
      out.append(i == 0 ? Character.toUpperCase(w.charAt(0)) + w.substring(1) : w);
    }
    return out.append(random.nextInt(5) == 0 ? "?" : ".").toString();
  }
}
