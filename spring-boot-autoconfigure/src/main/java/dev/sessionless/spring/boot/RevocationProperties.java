package dev.sessionless.spring.boot;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * The {@code sessionless.revocation.*} properties: where revoked sessions and subjects logged out
 * everywhere are kept, checked on every request from a local copy.
 */
public class RevocationProperties {
  /** The kinds of revocation source. */
  public enum Type {
    /** No revocation: a token is valid until it expires, even after logout. */
    NONE,
    /** In this instance's memory: a single instance (other instances never hear of it). */
    MEMORY,
    /** Shared by every instance through Redis (needs sessionless-redis). */
    REDIS,
    /** A signed list read from a file or URL (read-only here; keyring revocations publish). */
    PUBLISHED
  }

  /**
   * NONE (a token is valid until it expires, even after logout), MEMORY (this instance only),
   * REDIS (every instance, sessionless-redis) or PUBLISHED (a signed list, read-only).
   */
  private Type type = Type.NONE;

  /** The Redis store (type REDIS). */
  private final Redis redis = new Redis();

  /** The published list (type PUBLISHED). */
  private final Published published = new Published();

  /** Used by Spring. */
  public RevocationProperties() {}

  /** The kind of revocation source (NONE by default). */
  public Type getType() {
    return type;
  }

  /** Sets the kind of revocation source. */
  public void setType(Type type) {
    this.type = type;
  }

  /** The Redis store ({@code sessionless.revocation.redis.*}). */
  public Redis getRedis() {
    return redis;
  }

  /** The published list ({@code sessionless.revocation.published.*}). */
  public Published getPublished() {
    return published;
  }

  /** Revocations shared through Redis. */
  public static class Redis {
    /** What a node does once it could not read Redis for longer than the stale bound. */
    public enum OnStale {
      /** Keep answering from the last copy. */
      FAIL_OPEN,
      /** Fail every check with REVOCATION_UNAVAILABLE (a server error) until Redis is read. */
      FAIL_CLOSED
    }

    /** The Redis server, redis://host:6379 or rediss://user:password@host:6380/0. Required for REDIS. */
    private String url;

    /** A Redis Cluster instead of one server (sessionless.revocation.redis.cluster.*). */
    @NestedConfigurationProperty
    private final Cluster cluster = new Cluster();

    /** The prefix of every key and of the publish/subscribe channel. */
    private String keyPrefix = "sessionless:revocation:";

    /** How often each instance reads the whole list: the lag bound when publish/subscribe is down. */
    private Duration pollInterval = Duration.ofSeconds(30);

    /** How long without a successful read from Redis before the copy is stale; longer than the poll interval. */
    private Duration staleBound = Duration.ofMinutes(5);

    /** FAIL_OPEN (keep answering from the last copy) or FAIL_CLOSED (refuse) once the copy is stale. */
    private OnStale onStale = OnStale.FAIL_OPEN;

    /** Used by Spring. */
    public Redis() {}

    /** The Redis URL, or {@code null}. */
    public String getUrl() {
      return url;
    }

    /** Sets the Redis URL. */
    public void setUrl(String url) {
      this.url = url;
    }

    /** The Redis Cluster ({@code sessionless.revocation.redis.cluster.*}). */
    public Cluster getCluster() {
      return cluster;
    }

    /** The prefix of every key and of the channel. */
    public String getKeyPrefix() {
      return keyPrefix;
    }

    /** Sets the prefix of every key and of the channel. */
    public void setKeyPrefix(String keyPrefix) {
      this.keyPrefix = keyPrefix;
    }

    /** How often the whole list is read (30 seconds by default). */
    public Duration getPollInterval() {
      return pollInterval;
    }

    /** Sets how often the whole list is read. */
    public void setPollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
    }

    /** How long without a read before the copy is stale (5 minutes by default). */
    public Duration getStaleBound() {
      return staleBound;
    }

    /** Sets how long without a read before the copy is stale. */
    public void setStaleBound(Duration staleBound) {
      this.staleBound = staleBound;
    }

    /** What a stale copy does (FAIL_OPEN by default). */
    public OnStale getOnStale() {
      return onStale;
    }

    /** Sets what a stale copy does. */
    public void setOnStale(OnStale onStale) {
      this.onStale = onStale;
    }

    /** A Redis Cluster holding the revocations, in place of {@code sessionless.revocation.redis.url}. */
    public static class Cluster {
      /**
       * Some of the cluster's masters, host:port or redis://host:port (rediss://user:password@host:port
       * for TLS and credentials, the first node's for all); one that answers is enough. Instead of
       * sessionless.revocation.redis.url.
       */
      private List<String> nodes = new ArrayList<>();

      /** Used by Spring. */
      public Cluster() {}

      /** The cluster's nodes as configured; empty when Redis is one server. */
      public List<String> getNodes() {
        return nodes;
      }

      /** Sets the cluster's nodes. */
      public void setNodes(List<String> nodes) {
        this.nodes = nodes;
      }
    }
  }

  /** A signed revocation list, published as a file or at a URL (made by keyring revocations publish). */
  public static class Published {
    /** The list's file. One of file and url is required for PUBLISHED. */
    private Path file;

    /** The list's HTTPS URL (plain http only to a loopback host). One of file and url is required. */
    private URI url;

    /**
     * A JWKS file with the publisher's verification key(s); the session keys
     * (sessionless.keys.*) when not set.
     */
    private Path keysFile;

    /** The issuer the list must carry; sessionless.issuer when not set. */
    private String issuer;

    /** The audience the list must carry; the session audience when not set. */
    private String audience;

    /** How often to read the list: the revocation lag bound. */
    private Duration pollInterval = Duration.ofSeconds(30);

    /**
     * FAIL_OPEN (keep answering from the last list) or FAIL_CLOSED (refuse) once the list has
     * expired and no newer one could be read.
     */
    private Redis.OnStale onStale = Redis.OnStale.FAIL_OPEN;

    /** Used by Spring. */
    public Published() {}

    /** The list's file, or {@code null}. */
    public Path getFile() {
      return file;
    }

    /** Sets the list's file. */
    public void setFile(Path file) {
      this.file = file;
    }

    /** The list's URL, or {@code null}. */
    public URI getUrl() {
      return url;
    }

    /** Sets the list's URL. */
    public void setUrl(URI url) {
      this.url = url;
    }

    /** The publisher's JWKS file, or {@code null} for the session keys. */
    public Path getKeysFile() {
      return keysFile;
    }

    /** Sets the publisher's JWKS file. */
    public void setKeysFile(Path keysFile) {
      this.keysFile = keysFile;
    }

    /** The issuer the list must carry, or {@code null} for sessionless.issuer. */
    public String getIssuer() {
      return issuer;
    }

    /** Sets the issuer the list must carry. */
    public void setIssuer(String issuer) {
      this.issuer = issuer;
    }

    /** The audience the list must carry, or {@code null} for the session audience. */
    public String getAudience() {
      return audience;
    }

    /** Sets the audience the list must carry. */
    public void setAudience(String audience) {
      this.audience = audience;
    }

    /** How often the list is read (30 seconds by default). */
    public Duration getPollInterval() {
      return pollInterval;
    }

    /** Sets how often the list is read. */
    public void setPollInterval(Duration pollInterval) {
      this.pollInterval = pollInterval;
    }

    /** What an expired list does (FAIL_OPEN by default). */
    public Redis.OnStale getOnStale() {
      return onStale;
    }

    /** Sets what an expired list does. */
    public void setOnStale(Redis.OnStale onStale) {
      this.onStale = onStale;
    }
  }
}
