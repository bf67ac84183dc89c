package dev.sessionless.keyring.internal.cli;

import dev.sessionless.core.KeySet;
import dev.sessionless.core.internal.Base64Url;
import dev.sessionless.keyring.EncryptedJwks;
import dev.sessionless.keyring.KeyringException;
import dev.sessionless.keyring.KeyringException.Reason;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;

/** Reading key files (plain or encrypted) and writing them owner-only, atomically. */
final class KeyFiles {
  /** Permissions of every file that holds keys, encrypted or not. */
  static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
  /** Permissions of a public JWKS. */
  static final Set<PosixFilePermission> PUBLIC = PosixFilePermissions.fromString("rw-r--r--");
  private static final int MAX_FILE_BYTES = EncryptedJwks.MAX_INPUT_CHARS;
  private static final int MAX_PASSWORD_FILE_BYTES = 4096;

  private KeyFiles() {}

  /** How a key file is (or is to be) protected. */
  static final class Protection implements AutoCloseable {
    private final char[] password;
    private final byte[] kek;
    private final int iterations;
    private final int maxIterations;
    private final String source;

    private Protection(char[] password, byte[] kek, int iterations, int maxIterations, String source) {
      this.password = password;
      this.kek = kek;
      this.iterations = iterations;
      this.maxIterations = maxIterations;
      this.source = source;
    }

    static Protection none() {
      return new Protection(null, null, 0, 0, "none");
    }

    static Protection password(char[] password, int iterations, int maxIterations, String source) {
      return new Protection(password, null, iterations, maxIterations, source);
    }

    static Protection kek(byte[] kek, String source) {
      return new Protection(null, kek, 0, 0, source);
    }

    boolean isNone() {
      return password == null && kek == null;
    }

    /** For messages: "a password" or "a key-encryption key"; never the secret. */
    String describe() {
      return password != null ? "a password" : kek != null ? "a key-encryption key" : "nothing";
    }

    String source() {
      return source;
    }

    KeySet decrypt(String content) {
      if (password != null) {
        return EncryptedJwks.decrypt(content, password, maxIterations);
      }
      return EncryptedJwks.decrypt(content, kek);
    }

    String encrypt(KeySet keys) {
      if (password != null) {
        return EncryptedJwks.encrypt(keys, password, iterations);
      }
      return EncryptedJwks.encrypt(keys, kek);
    }

    /** Overwrites the secret held here. */
    @Override
    public void close() {
      if (password != null) {
        Arrays.fill(password, '\0');
      }
      if (kek != null) {
        Arrays.fill(kek, (byte) 0);
      }
    }

    @Override
    public String toString() {
      return "Protection[" + describe() + "]";
    }
  }

  /** A key set read from a file, and whether the file was encrypted. */
  record Loaded(KeySet keys, boolean encrypted) {}

  /**
   * Reads the {@code --in} file of a command that only reads it, opened with the secret the
   * options name (cleared at once), with a warning on {@code err} if plain keys are exposed.
   *
   * @throws KeyringException as {@link #read} does
   */
  static Loaded readIn(Options o, Map<String, String> env, PrintStream err) {
    Path in = o.requirePath("--in");
    try (Protection protection = o.readProtection(env)) {
      Loaded loaded = read(in, protection);
      KeyringCli.warnIfExposed(in, loaded, err);
      return loaded;
    }
  }

  /**
   * Reads a key file: a JWKS, or an encrypted key file that {@code protection} opens.
   *
   * @throws KeyringException UNAVAILABLE, MALFORMED, DECRYPTION_FAILED, UNSAFE_PARAMETERS,
   *     CONFIGURATION (encrypted but no secret given)
   */
  static Loaded read(Path file, Protection protection) {
    String content = readText(file);
    if (EncryptedJwks.isEncrypted(content)) {
      if (protection.isNone()) {
        throw new KeyringException(Reason.CONFIGURATION, file
            + " is encrypted: give --password-env, --password-file or --kek-env");
      }
      return new Loaded(protection.decrypt(content), true);
    }
    if (!content.strip().startsWith("{")) {
      throw new KeyringException(Reason.MALFORMED,
          file + " is neither a JWKS (JSON) nor an encrypted key file (compact JWE)");
    }
    try {
      return new Loaded(KeySet.fromJwks(content), false);
    } catch (IllegalArgumentException e) {
      // Core's messages name kids and members, never their values.
      throw new KeyringException(Reason.MALFORMED, file + " is not a valid key set: " + e.getMessage());
    }
  }

  /** Whether a plaintext file of keys can be read by users other than its owner. */
  static boolean readableByOthers(Path file) {
    try {
      PosixFileAttributeView view = Files.getFileAttributeView(file, PosixFileAttributeView.class);
      if (view == null) {
        return false;
      }
      Set<PosixFilePermission> p = view.readAttributes().permissions();
      return p.contains(PosixFilePermission.GROUP_READ) || p.contains(PosixFilePermission.OTHERS_READ);
    } catch (IOException e) {
      return false;
    }
  }

  private static String readText(Path file) {
    byte[] bytes = null;
    try {
      if (Files.isDirectory(file)) {
        throw new KeyringException(Reason.UNAVAILABLE, file + " is a directory, not a key file");
      }
      if (Files.size(file) > MAX_FILE_BYTES) {
        throw new KeyringException(Reason.MALFORMED, file + " is larger than " + MAX_FILE_BYTES + " bytes");
      }
      bytes = Files.readAllBytes(file);
      return StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes)).toString();
    } catch (NoSuchFileException e) {
      throw new KeyringException(Reason.UNAVAILABLE, file + " does not exist");
    } catch (CharacterCodingException e) {
      throw new KeyringException(Reason.MALFORMED, file + " is not UTF-8 text");
    } catch (IOException e) {
      throw unavailable(file, e);
    } finally {
      if (bytes != null) {
        Arrays.fill(bytes, (byte) 0);
      }
    }
  }

  /** Reads a password from a file: its content less one trailing line break. */
  static char[] readPassword(Path file) {
    byte[] bytes = null;
    CharBuffer chars = null;
    try {
      if (Files.size(file) > MAX_PASSWORD_FILE_BYTES) {
        throw new KeyringException(Reason.MALFORMED, "the password file " + file + " is too large");
      }
      bytes = Files.readAllBytes(file);
      chars = StandardCharsets.UTF_8.newDecoder()
          .onMalformedInput(CodingErrorAction.REPORT)
          .decode(ByteBuffer.wrap(bytes));
      int end = chars.limit();
      if (end > 0 && chars.get(end - 1) == '\n') {
        end--;
        if (end > 0 && chars.get(end - 1) == '\r') {
          end--;
        }
      }
      char[] password = new char[end];
      chars.get(password, 0, end);
      return password;
    } catch (NoSuchFileException e) {
      throw new KeyringException(Reason.UNAVAILABLE, "the password file " + file + " does not exist");
    } catch (CharacterCodingException e) {
      throw new KeyringException(Reason.MALFORMED, "the password file " + file + " is not UTF-8 text");
    } catch (IOException e) {
      throw unavailable(file, e);
    } finally {
      if (bytes != null) {
        Arrays.fill(bytes, (byte) 0);
      }
      if (chars != null && chars.hasArray()) {
        Arrays.fill(chars.array(), '\0');
      }
    }
  }

  /** Reads a password from an environment variable. */
  static char[] passwordFromEnv(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null) {
      throw new KeyringException(Reason.UNAVAILABLE, "the environment variable " + name + " is not set");
    }
    return v.toCharArray();
  }

  /** Reads a 32-byte key-encryption key, base64url (padding optional), from an environment variable. */
  static byte[] kekFromEnv(Map<String, String> env, String name) {
    String v = env.get(name);
    if (v == null) {
      throw new KeyringException(Reason.UNAVAILABLE, "the environment variable " + name + " is not set");
    }
    byte[] kek = Base64Url.decodeOptionallyPadded(v.strip());
    if (kek == null) {
      throw new KeyringException(Reason.MALFORMED, "the environment variable " + name
          + " is not base64url (a 32-byte key-encryption key, e.g. from: openssl rand 32 | basenc --base64url)");
    }
    if (kek.length != EncryptedJwks.KEK_BYTES) {
      Arrays.fill(kek, (byte) 0);
      throw new KeyringException(Reason.UNSAFE_PARAMETERS, "the environment variable " + name
          + " must hold exactly " + EncryptedJwks.KEK_BYTES + " bytes, base64url-encoded");
    }
    return kek;
  }

  /**
   * Writes key material to {@code target}: a temporary file created {@code rw-------} in the
   * same directory, flushed to disk, then moved over the target atomically. The file is never
   * readable by others, not even briefly.
   *
   * @throws KeyringException INSECURE_FILE on a file system without POSIX permissions,
   *     UNAVAILABLE if it cannot be written
   */
  static void writeSecret(Path target, String content) {
    write(target, content, OWNER_ONLY);
  }

  /** Writes a public document the same atomic way, {@code rw-r--r--}. */
  static void writePublic(Path target, String content) {
    write(target, content, PUBLIC);
  }

  /** Refuses to replace an existing file. */
  static void requireAbsent(Path target) {
    if (Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
      throw new KeyringException(Reason.CONFIGURATION,
          target + " already exists; choose another --out, or add --force to replace it");
    }
  }

  private static void write(Path target, String content, Set<PosixFilePermission> permissions) {
    Path absolute = target.toAbsolutePath();
    Path dir = absolute.getParent();
    Path tmp = null;
    byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
    try {
      if (dir == null || !Files.isDirectory(dir)) {
        throw new KeyringException(Reason.UNAVAILABLE, "the directory of " + target + " does not exist");
      }
      if (!Files.getFileStore(dir).supportsFileAttributeView(PosixFileAttributeView.class)) {
        throw new KeyringException(Reason.INSECURE_FILE, "cannot write " + target
            + " owner-only: its file system has no POSIX permissions");
      }
      FileAttribute<Set<PosixFilePermission>> ownerOnly = PosixFilePermissions.asFileAttribute(OWNER_ONLY);
      tmp = Files.createTempFile(dir, "." + absolute.getFileName() + ".", ".tmp", ownerOnly);
      // The umask can only remove bits; make sure the owner can write, and nobody else can read.
      Files.setPosixFilePermissions(tmp, OWNER_ONLY);
      try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
        ByteBuffer buf = ByteBuffer.wrap(bytes);
        while (buf.hasRemaining()) {
          ch.write(buf);
        }
        ch.force(true);
      }
      if (!permissions.equals(OWNER_ONLY)) {
        Files.setPosixFilePermissions(tmp, permissions);
      }
      Files.move(tmp, absolute, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      tmp = null;
    } catch (FileAlreadyExistsException | AccessDeniedException e) {
      throw unavailable(target, e);
    } catch (IOException | UnsupportedOperationException e) {
      throw new KeyringException(Reason.UNAVAILABLE,
          "cannot write " + target + ": " + e.getClass().getSimpleName(), e);
    } finally {
      Arrays.fill(bytes, (byte) 0);
      if (tmp != null) {
        try {
          Files.deleteIfExists(tmp);
        } catch (IOException ignored) {
          // Best effort: the temporary file is owner-only anyway.
        }
      }
    }
  }

  private static KeyringException unavailable(Path file, IOException e) {
    String why = e instanceof AccessDeniedException ? "permission denied" : e.getClass().getSimpleName();
    return new KeyringException(Reason.UNAVAILABLE, "cannot access " + file + ": " + why);
  }
}
