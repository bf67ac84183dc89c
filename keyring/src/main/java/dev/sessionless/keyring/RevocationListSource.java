package dev.sessionless.keyring;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * Where {@link PublishedRevocations} reads its list: an HTTP(S) URL, asked conditionally with the
 * {@code ETag} of the last list accepted (a {@code 304} means unchanged), or a file, read again
 * when its size or modification time changes. Either way at most {@code maxBytes}.
 *
 * <p>One read at a time: {@link PublishedRevocations#refresh} lets a single caller read while
 * the others wait for its outcome, so the remembered validator needs no lock of its own.
 */
final class RevocationListSource {
  private final URI url;
  private final Path file;
  private final HttpClient http;
  private final Duration timeout;
  private final int maxBytes;
  /** The {@code ETag} (HTTP) or size-and-time stamp (file) of the last list accepted. */
  private volatile String validator;

  /** The text of a list read, and its validator, to remember once the list is accepted. */
  record Fetched(String text, String validator) {
    @Override
    public String toString() {
      return "Fetched[" + text.length() + " chars]";
    }
  }

  RevocationListSource(URI url, Path file, Duration timeout, int maxBytes) {
    this.url = url;
    this.file = file;
    this.timeout = timeout;
    this.maxBytes = maxBytes;
    this.http = url == null ? null : HttpClient.newBuilder().connectTimeout(timeout)
        .followRedirects(HttpClient.Redirect.NEVER).build();
  }

  /**
   * Reads the list if it changed since the last one {@linkplain #accepted accepted}.
   *
   * @return the list, or {@code null} if unchanged
   * @throws KeyringException {@code UNAVAILABLE} if it cannot be read, is over the size cap, or
   *     the URL answers another status
   */
  Fetched fetchIfChanged() {
    return url != null ? fetch() : readFile();
  }

  /** Remembers the list's validator: the next read is conditional on it. */
  void accepted(Fetched list) {
    validator = list.validator();
  }

  /** The URL without its query (which may carry a token) or the file, for messages. */
  String describe() {
    return url != null ? url.getScheme() + "://" + url.getAuthority() + url.getPath() : file.toString();
  }

  private Fetched fetch() {
    HttpRequest.Builder req = HttpRequest.newBuilder(url).timeout(timeout).GET();
    String etag = validator;
    if (etag != null) {
      req.header("If-None-Match", etag);
    }
    try {
      HttpResponse<InputStream> res = http.send(req.build(), HttpResponse.BodyHandlers.ofInputStream());
      try (InputStream in = res.body()) {
        if (res.statusCode() == 304) {
          return null;
        }
        if (res.statusCode() != 200) {
          throw new KeyringException(KeyringException.Reason.UNAVAILABLE,
              "the revocation list URL answered " + res.statusCode() + ": check the publisher");
        }
        byte[] body = in.readNBytes(maxBytes + 1);
        if (body.length > maxBytes) {
          throw new KeyringException(KeyringException.Reason.UNAVAILABLE,
              "the revocation list is over " + maxBytes + " bytes: refused");
        }
        return new Fetched(new String(body, StandardCharsets.US_ASCII).strip(),
            res.headers().firstValue("ETag").orElse(null));
      }
    } catch (IOException e) {
      throw new KeyringException(KeyringException.Reason.UNAVAILABLE,
          "the revocation list could not be fetched (" + e.getClass().getSimpleName() + "): check the URL", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KeyringException(KeyringException.Reason.UNAVAILABLE, "interrupted while fetching the list", e);
    }
  }

  private Fetched readFile() {
    try {
      long size = Files.size(file);
      if (size > maxBytes) {
        throw new KeyringException(KeyringException.Reason.UNAVAILABLE,
            "the revocation list file is over " + maxBytes + " bytes: refused");
      }
      String stamp = size + "@" + Files.getLastModifiedTime(file).toMillis();
      if (stamp.equals(validator)) {
        return null;
      }
      return new Fetched(Files.readString(file, StandardCharsets.US_ASCII).strip(), stamp);
    } catch (IOException e) {
      throw new KeyringException(KeyringException.Reason.UNAVAILABLE,
          "the revocation list file could not be read (" + e.getClass().getSimpleName() + "): check the path", e);
    }
  }
}
