package dev.sessionless.keyring.internal;

import dev.sessionless.core.KeySet;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;

/**
 * A JWKS file (plain or encrypted), polled for changes. Each check resolves the path through
 * every symbolic link first, so the atomic swap a Kubernetes Secret volume makes (a {@code
 * ..data} link moved to a new directory) is a change even when the new file has the old size
 * and time. A file whose real path, size and modification time are unchanged is not re-read —
 * unless it was last read less than {@link #RACY_MILLIS} after its modification time: file
 * systems stamp times coarsely (a few milliseconds, two seconds on FAT), so a second write of the
 * same size within one tick would look unchanged; such a "racily clean" file is read again until
 * the stamp is safely in the past (git's rule). A re-read whose content hash is unchanged keeps
 * the key set as it is.
 */
public final class FileSource extends Source {
  /** Largest key file read. */
  static final long MAX_BYTES = 1 << 20;
  /** How long after its modification time a file must have been read for its metadata to be trusted. */
  static final long RACY_MILLIS = 2_000;

  private final Path path;
  private final KeyContent.Unlock unlock;
  private final Duration poll;
  private Path lastRealPath;
  private long lastSize = -1;
  private long lastModified = Long.MIN_VALUE;
  private byte[] lastHash;
  private long lastReadWallMillis;

  /** A file checked every {@code poll}. */
  public FileSource(Path path, KeyContent.Unlock unlock, Duration poll) {
    this.path = path;
    this.unlock = unlock;
    this.poll = poll;
  }

  @Override
  public String describe() {
    return "JWKS file " + path;
  }

  @Override
  protected KeySet load(Instant now) {
    try {
      Path real = path.toRealPath();
      BasicFileAttributes attributes = Files.readAttributes(real, BasicFileAttributes.class);
      long size = attributes.size();
      long modified = attributes.lastModifiedTime().toMillis();
      if (real.equals(lastRealPath) && size == lastSize && modified == lastModified
          && lastReadWallMillis - modified >= RACY_MILLIS) {
        return null;
      }
      long readAt = System.currentTimeMillis(); // file times are wall-clock times, whatever the keyring's clock
      if (size > MAX_BYTES) {
        throw new KeyringException(Reason.MALFORMED, describe() + " is larger than " + MAX_BYTES + " bytes");
      }
      byte[] bytes = Files.readAllBytes(real);
      try {
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(bytes);
        KeySet keys = null;
        if (!Arrays.equals(hash, lastHash)) {
          String text = StandardCharsets.UTF_8.newDecoder().decode(java.nio.ByteBuffer.wrap(bytes)).toString();
          keys = KeyContent.parse(text, unlock, false, describe());
        }
        // Remember what was read only once it parsed: a half-written file is read again.
        lastRealPath = real;
        lastSize = size;
        lastModified = modified;
        lastHash = hash;
        lastReadWallMillis = readAt;
        return keys;
      } finally {
        Arrays.fill(bytes, (byte) 0);
      }
    } catch (NoSuchFileException e) {
      throw new KeyringException(Reason.UNAVAILABLE, describe() + " does not exist");
    } catch (CharacterCodingException e) {
      throw new KeyringException(Reason.MALFORMED, describe() + " is not UTF-8 text");
    } catch (IOException e) {
      throw new KeyringException(Reason.UNAVAILABLE, describe() + " cannot be read (" + e.getClass().getSimpleName() + ")");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JDK", e);
    }
  }

  @Override
  protected Duration nextCheckAfterSuccess() {
    return poll;
  }
}
