package dev.sessionless.testing;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.Charset;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The saved inputs of one Jazzer fuzz test class, in its module's source tree: {@code
 * src/test/resources/<package path>/<Class>Inputs/<method>/}, where Jazzer's regression mode
 * replays them. The fuzz classes' {@code main} methods write their seeds through it
 * (docs/FUZZING.md gives the command); a rewrite replaces a method's {@code seed-NN} files and
 * keeps every other file there (the {@code crash-*} findings of past campaigns).
 */
public final class FuzzSeeds {
  private final Path inputs;

  private FuzzSeeds(Path inputs) {
    this.inputs = inputs;
  }

  /**
   * The inputs of {@code fuzzTest}, found from where its class file was compiled to ({@code
   * <module>/target/test-classes}), so the answer does not depend on the working directory.
   *
   * @throws IllegalStateException if the class was not loaded from a module's {@code
   *     target/test-classes} directory
   */
  public static FuzzSeeds of(Class<?> fuzzTest) {
    Path classes;
    try {
      classes = Path.of(fuzzTest.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException | RuntimeException e) {
      throw new IllegalStateException("cannot tell where " + fuzzTest.getName() + " was loaded from", e);
    }
    Path module = classes.getParent() == null ? null : classes.getParent().getParent();
    if (module == null || !Files.isDirectory(classes) || !Files.isDirectory(module.resolve("src/test"))) {
      throw new IllegalStateException(fuzzTest.getName() + " was loaded from " + classes
          + ", not from a module's target/test-classes: build the module's tests and run from there");
    }
    String packagePath = fuzzTest.getPackageName().replace('.', '/');
    return new FuzzSeeds(module.resolve("src/test/resources").resolve(packagePath)
        .resolve(fuzzTest.getSimpleName() + "Inputs"));
  }

  /** The directory of one fuzz method's saved inputs (it may not exist yet). */
  public Path dir(String method) {
    return inputs.resolve(method);
  }

  /**
   * Creates the method's directory if needed and deletes its {@code seed-*} files, leaving every
   * other file; answers the directory, for {@link #write(Path, int, byte[])}.
   */
  public Path clean(String method) throws IOException {
    Path dir = dir(method);
    Files.createDirectories(dir);
    try (var old = Files.list(dir)) {
      for (Path p : old.filter(p -> p.getFileName().toString().startsWith("seed-")).toList()) {
        Files.delete(p);
      }
    }
    return dir;
  }

  /** Replaces the method's seeds with {@code seeds}, written as {@code seed-00}, {@code seed-01}, ... */
  public void write(String method, List<byte[]> seeds) throws IOException {
    Path dir = clean(method);
    for (int i = 0; i < seeds.size(); i++) {
      write(dir, i, seeds.get(i));
    }
  }

  /** {@link #write(String, List)} for seeds given as text, each encoded with {@code charset}. */
  public void writeTexts(String method, List<String> seeds, Charset charset) throws IOException {
    write(method, seeds.stream().map(s -> s.getBytes(charset)).toList());
  }

  /** Writes {@code content} as the seed numbered {@code index} ({@code seed-NN}) in {@code dir}. */
  public static void write(Path dir, int index, byte[] content) throws IOException {
    Files.write(dir.resolve(String.format("seed-%02d", index)), content);
  }

  /** {@code first} followed by {@code rest}: the layout of an input whose first byte picks a mode. */
  public static byte[] prefixed(int first, byte[] rest) {
    byte[] out = new byte[rest.length + 1];
    out[0] = (byte) first;
    System.arraycopy(rest, 0, out, 1, rest.length);
    return out;
  }
}
