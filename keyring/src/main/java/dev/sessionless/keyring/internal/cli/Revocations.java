package dev.sessionless.keyring.internal.cli;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import dev.sessionless.keyring.PublishedRevocations;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import tools.jackson.core.JacksonException;
import tools.jackson.core.StreamReadFeature;
import tools.jackson.databind.DeserializationFeature;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.ObjectMapper;
import tools.jackson.databind.json.JsonMapper;

/**
 * {@code keyring revocations}: signs a revocation list (a JSON file of revoked sessions and
 * subjects logged out everywhere) with a key of the key file, for {@link PublishedRevocations}
 * readers: the way to revoke for an operator without Redis.
 */
final class Revocations {
  /** The most a list file may hold: the readers refuse a signed list over 1 MiB anyway. */
  private static final int MAX_LIST_BYTES = 1 << 20;
  static final Duration DEFAULT_VALID_FOR = Duration.ofMinutes(5);
  private static final ObjectMapper JSON = JsonMapper.builder()
      .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
      .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS).build();

  private Revocations() {}

  static int run(Options o, PrintStream out, PrintStream err, Map<String, String> env, Clock clock,
      Instant now) {
    Path in = o.requirePath("--in");
    Path listFile = o.requirePath("--list");
    Path target = o.requirePath("--out");
    String issuer = o.require("--issuer");
    String audience = o.require("--audience");
    Duration validFor = o.duration("--valid-for").orElse(DEFAULT_VALID_FOR);
    if (validFor.compareTo(Duration.ofSeconds(1)) < 0 || validFor.toNanos() % 1_000_000_000L != 0) {
      throw new UsageException("--valid-for must be whole seconds, at least 1s, got " + Durations.show(validFor));
    }
    Map<String, Instant> sessions = new LinkedHashMap<>();
    Map<String, List<Instant>> subjects = new LinkedHashMap<>();
    readList(listFile, sessions, subjects);
    KeySet keys = KeyFiles.readIn(o, env, err).keys();
    TokenKey signer = signer(o, keys, in, now);
    if (signer.algorithm() == Algorithm.DIR_A256GCM) {
      throw new KeyringException(Reason.CONFIGURATION, "key " + signer.kid() + " encrypts (dir): a revocation"
          + " list is signed; name an HS256, HS384, HS512, ES256 or EdDSA key with --kid or --alg");
    }
    TokenCodec codec = TokenCodec.builder().keys(KeySet.of(signer)).algorithm(signer.algorithm())
        .issuer(issuer).audience(audience).tokenType(PublishedRevocations.TOKEN_TYPE).timeToLive(validFor)
        .clock(Clock.fixed(now, java.time.ZoneOffset.UTC)).build();
    String list = PublishedRevocations.sign(codec, sessions, subjects, Clock.fixed(now, java.time.ZoneOffset.UTC));
    long liveSessions = sessions.values().stream().filter(u -> !u.isBefore(now)).count();
    long liveSubjects = subjects.values().stream().filter(p -> !p.get(1).isBefore(now)).count();
    KeyFiles.writePublic(target, list + "\n");
    long dropped = sessions.size() + subjects.size() - liveSessions - liveSubjects;
    out.println("signed " + liveSessions + " session(s) and " + liveSubjects + " subject(s) with " + signer.kid()
        + " (" + signer.algorithm().joseName() + ")" + (dropped > 0 ? ", " + dropped + " past their until left out" : ""));
    out.println("wrote " + target + ", valid until " + now.plus(validFor) + ": publish it again before then");
    return KeyringCli.OK;
  }

  /** The key named by --kid, else the one signing now for --alg, else the only algorithm signing now. */
  private static TokenKey signer(Options o, KeySet keys, Path in, Instant now) {
    if (o.kid().isPresent()) {
      String kid = o.kid().get();
      TokenKey k = keys.key(kid).orElseThrow(() -> new KeyringException(Reason.CONFIGURATION,
          "there is no key " + kid + " in " + in + ": 'keyring list --in " + in + "' shows the kids"));
      if (keys.signingKey(k.algorithm(), now).map(s -> s != k).orElse(true)) {
        throw new KeyringException(Reason.CONFIGURATION, "key " + kid + " does not sign now (see 'keyring list"
            + " --in " + in + "'): readers verify the list like a token, so it must be signed by the key in force");
      }
      return k;
    }
    if (o.algorithm().isPresent()) {
      Algorithm a = o.algorithm().get();
      return keys.signingKey(a, now).orElseThrow(() -> new KeyringException(Reason.CONFIGURATION,
          "no " + a.joseName() + " key of " + in + " signs now"));
    }
    Set<String> signing = new TreeSet<>();
    TokenKey only = null;
    for (Algorithm a : Algorithm.values()) {
      if (a != Algorithm.DIR_A256GCM && keys.signingKey(a, now).isPresent()) {
        signing.add(a.joseName());
        only = keys.signingKey(a, now).get();
      }
    }
    if (signing.size() != 1) {
      throw new KeyringException(Reason.CONFIGURATION, signing.isEmpty()
          ? "no key of " + in + " signs now"
          : "keys of several algorithms sign now (" + String.join(", ", signing) + "): choose with --alg or --kid");
    }
    return only;
  }

  /**
   * Reads {@code {"sessions": {"<id>": "<until>"}, "subjects": {"<subject>": {"notBefore":
   * "<instant>", "until": "<instant>"}}}}, instants in ISO-8601 UTC; both members optional.
   */
  static void readList(Path file, Map<String, Instant> sessions, Map<String, List<Instant>> subjects) {
    JsonNode root;
    try {
      if (Files.size(file) > MAX_LIST_BYTES) {
        throw new KeyringException(Reason.CONFIGURATION, file + " is over 1 MiB: a signed list that large is"
            + " refused by its readers");
      }
      root = JSON.readTree(Files.readString(file));
    } catch (KeyringException e) {
      throw e;
    } catch (JacksonException e) {
      throw new KeyringException(Reason.CONFIGURATION, "cannot read the list " + file
          + ": not JSON (or a member is repeated)");
    } catch (IOException e) {
      throw new KeyringException(Reason.CONFIGURATION, "cannot read the list " + file + ": "
          + e.getClass().getSimpleName());
    }
    if (root == null || !root.isObject()) {
      throw bad(file, "the list must be a JSON object with \"sessions\" and/or \"subjects\"");
    }
    for (Iterator<String> names = root.propertyNames().iterator(); names.hasNext(); ) {
      String n = names.next();
      if (!n.equals("sessions") && !n.equals("subjects")) {
        throw bad(file, "unknown member \"" + KeyringCli.printable(n) + "\" (only \"sessions\" and \"subjects\")");
      }
    }
    JsonNode s = root.path("sessions");
    if (!s.isMissingNode()) {
      if (!s.isObject()) {
        throw bad(file, "\"sessions\" must map each session id to the instant until which it stays revoked");
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = s.properties().iterator(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String id = e.getKey();
        if (id.isEmpty() || id.length() > 128) {
          throw bad(file, "a session id must be 1 to 128 characters");
        }
        sessions.put(id, instant(file, e.getValue(), "sessions." + KeyringCli.printable(id)));
      }
    }
    JsonNode u = root.path("subjects");
    if (!u.isMissingNode()) {
      if (!u.isObject()) {
        throw bad(file, "\"subjects\" must map each subject to {\"notBefore\": ..., \"until\": ...}");
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = u.properties().iterator(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String subject = e.getKey();
        String where = "subjects." + KeyringCli.printable(subject);
        JsonNode v = e.getValue();
        if (subject.isEmpty() || !v.isObject() || v.size() != 2 || !v.has("notBefore") || !v.has("until")) {
          throw bad(file, where + " must be {\"notBefore\": \"<instant>\", \"until\": \"<instant>\"} of a non-empty subject");
        }
        Instant notBefore = instant(file, v.get("notBefore"), where + ".notBefore");
        Instant until = instant(file, v.get("until"), where + ".until");
        if (until.isBefore(notBefore)) {
          throw bad(file, where + ".until is before its notBefore");
        }
        subjects.put(subject, List.of(notBefore, until));
      }
    }
  }

  private static Instant instant(Path file, JsonNode v, String where) {
    if (!v.isString()) {
      throw bad(file, where + " must be an ISO-8601 instant such as \"2026-11-24T10:00:00Z\"");
    }
    try {
      return Instant.parse(v.stringValue());
    } catch (DateTimeParseException e) {
      throw bad(file, where + " is not an ISO-8601 instant such as \"2026-11-24T10:00:00Z\"");
    }
  }

  private static KeyringException bad(Path file, String what) {
    return new KeyringException(Reason.CONFIGURATION, "the list " + file + ": " + what);
  }
}
