package dev.sessionless.core.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;

/**
 * Reads the test vectors vendored under {@code src/test/resources/wycheproof} (Wycheproof, with
 * its licence and source commit beside them) and {@code src/test/resources/rfc}, and keeps the
 * books of a run: how many vectors held, and which ones the project treats otherwise on purpose.
 * The books are checked both ways, so the list of deviations cannot rot: a vector listed as
 * treated otherwise that starts to behave as Wycheproof expects fails the run as surely as an
 * unlisted vector that does not.
 */
public final class WycheproofFiles {
  private static final ObjectMapper JSON = new ObjectMapper();

  private WycheproofFiles() {}

  /** A Wycheproof file, by its name in {@code testvectors_v1/}. */
  public static JsonNode load(String name) {
    return resource("/wycheproof/" + name);
  }

  /** Any JSON test resource, by its class-path path. */
  public static JsonNode resource(String path) {
    try (InputStream in = WycheproofFiles.class.getResourceAsStream(path)) {
      if (in == null) {
        throw new IllegalStateException("missing test resource " + path);
      }
      return JSON.readTree(in);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The bytes of a hexadecimal string. */
  public static byte[] hex(String s) {
    if (s.length() % 2 != 0) {
      throw new IllegalArgumentException("odd hex length: " + s);
    }
    byte[] out = new byte[s.length() / 2];
    for (int i = 0; i < out.length; i++) {
      out[i] = (byte) Integer.parseInt(s.substring(2 * i, 2 * i + 2), 16);
    }
    return out;
  }

  /**
   * An unsigned big-endian integer of at most {@code size} significant bytes, left-padded to
   * exactly {@code size} (Wycheproof writes coordinates with a leading zero byte when the top bit
   * is set).
   */
  public static byte[] fixed(byte[] v, int size) {
    int from = 0;
    while (from < v.length && v.length - from > size && v[from] == 0) {
      from++;
    }
    if (v.length - from > size) {
      throw new IllegalArgumentException("a value of " + (v.length - from) + " bytes does not fit " + size);
    }
    byte[] out = new byte[size];
    System.arraycopy(v, from, out, size - (v.length - from), v.length - from);
    return out;
  }

  /**
   * The tally of one run over one file: every vector's outcome, against the expectations and the
   * deviations the test declares.
   */
  public static final class Tally {
    private final String file;
    private final Map<Integer, String> treatedOtherwise;
    private final List<String> failures = new ArrayList<>();
    private final Map<Integer, Boolean> deviationSeen = new TreeMap<>();
    private int held;
    private int deviated;

    /**
     * @param file the vector file, for messages
     * @param treatedOtherwise tcId to the reason the project answers differently from Wycheproof
     */
    public Tally(String file, Map<Integer, String> treatedOtherwise) {
      this.file = file;
      this.treatedOtherwise = treatedOtherwise;
    }

    /**
     * Records one vector: {@code expected} is Wycheproof's verdict (true: valid), {@code actual}
     * the project's (true: accepted).
     */
    public void record(int tcId, boolean expected, boolean actual, String comment) {
      boolean listed = treatedOtherwise.containsKey(tcId);
      if (listed) {
        deviationSeen.put(tcId, Boolean.TRUE);
        if (expected == actual) {
          failures.add(file + " #" + tcId + " (" + comment + ") is listed as treated otherwise ("
              + treatedOtherwise.get(tcId) + ") but now gives Wycheproof's answer: take it off the list");
        } else {
          deviated++;
        }
      } else if (expected != actual) {
        failures.add(file + " #" + tcId + " (" + comment + "): Wycheproof says "
            + (expected ? "valid" : "invalid") + ", the project " + (actual ? "accepted" : "refused") + " it");
      } else {
        held++;
      }
    }

    /** How many vectors gave Wycheproof's answer. */
    public int held() {
      return held;
    }

    /** How many listed vectors were answered otherwise, as declared. */
    public int deviated() {
      return deviated;
    }

    /** Every mismatch, and every listed deviation that was never met; empty when all is well. */
    public List<String> problems() {
      List<String> out = new ArrayList<>(failures);
      for (Integer id : treatedOtherwise.keySet()) {
        if (!deviationSeen.containsKey(id)) {
          out.add(file + " #" + id + " is listed as treated otherwise but no such vector ran");
        }
      }
      return out;
    }
  }
}
