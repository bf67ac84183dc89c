package dev.sessionless.core;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sessionless.core.jackson.JacksonStateMapper;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Core's packages form layers: the API ({@code dev.sessionless.core}) and its implementation
 * ({@code core.internal}) use each other, which is one layer; the Jackson adapters sit on top and
 * nothing below them refers to them. Read from the compiled classes (every class a class file
 * names in its constant pool: imports, fully qualified names, signatures), not from the source.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PackageCyclesTest {
  private static final Path CLASSES = Path.of("target/classes");
  private static final Pattern OURS = Pattern.compile("dev/sessionless/core(?:/[a-z0-9_]+)*(?=/[A-Z$])");

  @Test
  void corePackagesHaveNoCycles() throws IOException {
    Map<String, Set<String>> uses = packageGraph();
    assertTrue(uses.containsKey("dev.sessionless.core.jackson"), uses.keySet().toString());
    List<Set<String>> cycles = new ArrayList<>();
    for (Set<String> component : stronglyConnected(uses)) {
      if (component.size() > 1) {
        cycles.add(new TreeSet<>(component));
      }
    }
    assertEquals(List.of(Set.of("dev.sessionless.core", "dev.sessionless.core.internal")), cycles,
        "a package cycle beyond the API and its implementation; the package graph: " + uses);
  }

  @Test
  void defaultMapperIsTheJacksonAdaptersDefaultInstance() {
    assertSame(JacksonStateMapper.defaults(), StateMapper.defaults());
  }

  /** Which packages each package of core refers to (itself left out). */
  static Map<String, Set<String>> packageGraph() throws IOException {
    Map<String, Set<String>> uses = new TreeMap<>();
    try (Stream<Path> files = Files.walk(CLASSES.resolve("dev/sessionless/core"))) {
      for (Path f : (Iterable<Path>) files.filter(p -> p.toString().endsWith(".class"))::iterator) {
        String from = CLASSES.relativize(f.getParent()).toString().replace('/', '.').replace('\\', '.');
        Set<String> to = uses.computeIfAbsent(from, k -> new TreeSet<>());
        for (String s : utf8Constants(f)) {
          Matcher m = OURS.matcher(s);
          while (m.find()) {
            to.add(m.group().replace('/', '.'));
          }
        }
        to.remove(from);
      }
    }
    return uses;
  }

  /** The CONSTANT_Utf8 entries of a class file: every class name, descriptor and signature in it. */
  private static List<String> utf8Constants(Path classFile) throws IOException {
    List<String> out = new ArrayList<>();
    try (InputStream raw = Files.newInputStream(classFile); DataInputStream in = new DataInputStream(raw)) {
      in.readInt(); // magic
      in.readUnsignedShort(); // minor
      in.readUnsignedShort(); // major
      int count = in.readUnsignedShort();
      for (int i = 1; i < count; i++) {
        int tag = in.readUnsignedByte();
        switch (tag) {
          case 1 -> out.add(in.readUTF());
          case 7, 8, 16, 19, 20 -> in.skipBytes(2);
          case 15 -> in.skipBytes(3);
          case 3, 4, 9, 10, 11, 12, 17, 18 -> in.skipBytes(4);
          case 5, 6 -> {
            in.skipBytes(8);
            i++; // takes two slots
          }
          default -> throw new IOException(classFile + ": unknown constant tag " + tag);
        }
      }
    }
    return out;
  }

  /** Tarjan's strongly connected components. */
  private static List<Set<String>> stronglyConnected(Map<String, Set<String>> graph) {
    Map<String, Integer> index = new HashMap<>();
    Map<String, Integer> low = new HashMap<>();
    Deque<String> stack = new ArrayDeque<>();
    Set<String> onStack = new HashSet<>();
    List<Set<String>> out = new ArrayList<>();
    for (String v : graph.keySet()) {
      if (!index.containsKey(v)) {
        visit(v, graph, index, low, stack, onStack, out);
      }
    }
    return out;
  }

  private static void visit(String v, Map<String, Set<String>> graph, Map<String, Integer> index,
      Map<String, Integer> low, Deque<String> stack, Set<String> onStack, List<Set<String>> out) {
    index.put(v, index.size());
    low.put(v, index.get(v));
    stack.push(v);
    onStack.add(v);
    for (String w : graph.getOrDefault(v, Set.of())) {
      if (!index.containsKey(w)) {
        visit(w, graph, index, low, stack, onStack, out);
        low.put(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.contains(w)) {
        low.put(v, Math.min(low.get(v), index.get(w)));
      }
    }
    if (low.get(v).equals(index.get(v))) {
      Set<String> component = new HashSet<>();
      String w;
      do {
        w = stack.pop();
        onStack.remove(w);
        component.add(w);
      } while (!w.equals(v));
      out.add(component);
    }
  }
}
