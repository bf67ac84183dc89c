package dev.sessionless.session.internal;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;

/**
 * Whether a record's canonical constructor and accessors are the ones the compiler writes when the
 * source declares none: the constructor only stores each parameter in its field, in order, and
 * each accessor only returns its field. Then building the record again from its components'
 * values gives a record holding the very same values, so {@code setAttribute}'s round-trip check
 * ({@link PlainJsonWriter#rebuild}) cannot find a difference and is skipped for it.
 *
 * <p>It reads the record's class file (a {@code .class} resource, readable from any module) and
 * compares the two methods' bytecode with that pattern, instruction by instruction, resolving
 * each field and method reference. Anything else, a class file it cannot find or read, a
 * constructor that checks or changes a value (even a compact one), an accessor that computes,
 * or code another compiler shaped otherwise, answers {@code false}, and the check runs as before:
 * the answer can only be "certainly plain" or "check". It reads the class file as packaged: a
 * change an instrumentation agent makes to the constructor when the class loads is not seen.
 */
final class PlainRecordCode {
  private static final int ALOAD_0 = 0x2a;
  private static final int INVOKESPECIAL = 0xb7;
  private static final int PUTFIELD = 0xb5;
  private static final int GETFIELD = 0xb4;
  private static final int RETURN = 0xb1;

  private final byte[][] utf8;
  private final int[][] refs; // per constant: {class or name index, name-and-type or descriptor index}
  private final String self;
  private final byte[][] methodCode;
  private final String[] methodKeys;

  private PlainRecordCode(DataInputStream in, String self) throws IOException {
    this.self = self;
    if (in.readInt() != 0xCAFEBABE) {
      throw new IOException("not a class file");
    }
    in.readUnsignedShort();
    in.readUnsignedShort();
    int count = in.readUnsignedShort();
    utf8 = new byte[count][];
    refs = new int[count][];
    for (int i = 1; i < count; i++) {
      int tag = in.readUnsignedByte();
      switch (tag) {
        case 1 -> {
          utf8[i] = new byte[in.readUnsignedShort()];
          in.readFully(utf8[i]);
        }
        case 7, 8, 16, 19, 20 -> refs[i] = new int[] {in.readUnsignedShort(), 0};
        case 3, 4 -> in.readInt();
        case 5, 6 -> {
          in.readLong();
          i++; // takes two entries
        }
        case 9, 10, 11, 12, 17, 18 -> refs[i] = new int[] {in.readUnsignedShort(), in.readUnsignedShort()};
        case 15 -> {
          in.readUnsignedByte();
          in.readUnsignedShort();
        }
        default -> throw new IOException("constant tag " + tag);
      }
    }
    in.readUnsignedShort(); // access flags
    in.readUnsignedShort(); // this class
    in.readUnsignedShort(); // super class
    in.skipNBytes(2L * in.readUnsignedShort()); // interfaces
    int fields = in.readUnsignedShort();
    for (int f = 0; f < fields; f++) {
      in.skipNBytes(6);
      skipAttributes(in);
    }
    int methods = in.readUnsignedShort();
    methodKeys = new String[methods];
    methodCode = new byte[methods][];
    for (int m = 0; m < methods; m++) {
      in.readUnsignedShort();
      methodKeys[m] = text(in.readUnsignedShort()) + text(in.readUnsignedShort());
      int attributes = in.readUnsignedShort();
      for (int a = 0; a < attributes; a++) {
        String name = text(in.readUnsignedShort());
        int length = in.readInt();
        if (name.equals("Code")) {
          in.skipNBytes(4); // max stack, max locals
          byte[] c = new byte[in.readInt()];
          in.readFully(c);
          in.skipNBytes(length - 8L - c.length);
          methodCode[m] = c;
        } else {
          in.skipNBytes(length);
        }
      }
    }
  }

  private static void skipAttributes(DataInputStream in) throws IOException {
    int n = in.readUnsignedShort();
    for (int a = 0; a < n; a++) {
      in.readUnsignedShort();
      in.skipNBytes(in.readInt() & 0xffffffffL);
    }
  }

  private String text(int index) throws IOException {
    if (index <= 0 || index >= utf8.length || utf8[index] == null) {
      throw new IOException("constant " + index + " is not text");
    }
    // Modified UTF-8; the names compared here are the JVM's, plain ASCII in the records planned.
    return new String(utf8[index], StandardCharsets.UTF_8);
  }

  /** The bytecode of method {@code name} with {@code descriptor}, or {@code null}. */
  private byte[] code(String name, String descriptor) {
    String key = name + descriptor;
    for (int m = 0; m < methodKeys.length; m++) {
      if (methodKeys[m].equals(key)) {
        return methodCode[m];
      }
    }
    return null;
  }

  /** Whether constant {@code index} is a field or method reference to {@code owner.name desc}. */
  private boolean refersTo(int index, String owner, String name, String desc) throws IOException {
    if (index <= 0 || index >= refs.length || refs[index] == null) {
      return false;
    }
    int[] member = refs[index];
    int[] cls = refs[member[0]];
    int[] nameAndType = refs[member[1]];
    return cls != null && nameAndType != null && text(cls[0]).equals(owner)
        && text(nameAndType[0]).equals(name) && text(nameAndType[1]).equals(desc);
  }

  /**
   * Whether {@code type}'s canonical constructor and every component's accessor are the
   * compiler's own (see the class comment); {@code false} whenever that is not certain.
   */
  static boolean isPlain(Class<?> type) {
    String file = type.getName().substring(type.getName().lastIndexOf('.') + 1) + ".class";
    try (InputStream raw = type.getResourceAsStream(file)) {
      if (raw == null) {
        return false;
      }
      PlainRecordCode c = new PlainRecordCode(new DataInputStream(raw), type.getName().replace('.', '/'));
      return c.plain(type.getRecordComponents());
    } catch (IOException | RuntimeException e) {
      return false;
    }
  }

  private boolean plain(RecordComponent[] components) throws IOException {
    StringBuilder params = new StringBuilder("(");
    for (RecordComponent rc : components) {
      params.append(descriptor(rc.getType()));
    }
    byte[] ctor = code("<init>", params.append(")V").toString());
    if (ctor == null || !plainConstructor(ctor, components)) {
      return false;
    }
    for (RecordComponent rc : components) {
      String desc = descriptor(rc.getType());
      byte[] get = code(rc.getName(), "()" + desc);
      if (get == null || !plainAccessor(get, rc.getName(), desc, rc.getType())) {
        return false;
      }
    }
    return true;
  }

  /** {@code aload_0; invokespecial Record.<init>()V; (aload_0; load param k; putfield k)*; return}. */
  private boolean plainConstructor(byte[] c, RecordComponent[] components) throws IOException {
    int p = 0;
    if (c.length < 4 || u1(c, p++) != ALOAD_0 || u1(c, p++) != INVOKESPECIAL
        || !refersTo(u2(c, p), "java/lang/Record", "<init>", "()V")) {
      return false;
    }
    p += 2;
    int slot = 1;
    for (RecordComponent rc : components) {
      Class<?> t = rc.getType();
      if (p + 5 > c.length || u1(c, p++) != ALOAD_0) {
        return false;
      }
      int load = loadOpcode(t, slot);
      if (load < 0x1a) { // the long form: opcode, slot
        if (u1(c, p++) != load || p >= c.length || u1(c, p++) != slot) {
          return false;
        }
      } else if (u1(c, p++) != load) {
        return false;
      }
      if (p + 3 > c.length || u1(c, p++) != PUTFIELD || !refersTo(u2(c, p), self, rc.getName(), descriptor(t))) {
        return false;
      }
      p += 2;
      slot += t == long.class || t == double.class ? 2 : 1;
    }
    return p == c.length - 1 && u1(c, p) == RETURN;
  }

  /** {@code aload_0; getfield f; (a|i|l)return}. */
  private boolean plainAccessor(byte[] c, String name, String desc, Class<?> t) throws IOException {
    int ret = t == long.class ? 0xad : t == int.class || t == boolean.class ? 0xac : t.isPrimitive() ? -1 : 0xb0;
    return c.length == 5 && u1(c, 0) == ALOAD_0 && u1(c, 1) == GETFIELD
        && refersTo(u2(c, 2), self, name, desc) && u1(c, 4) == ret;
  }

  /** The opcode loading local {@code slot} of type {@code t}: the one-byte form up to slot 3. */
  private static int loadOpcode(Class<?> t, int slot) {
    int family = t == long.class ? 1 : t == int.class || t == boolean.class ? 0 : t.isPrimitive() ? -1 : 4;
    if (family < 0) {
      return -1;
    }
    return slot <= 3 ? 0x1a + family * 4 + slot : 0x15 + family;
  }

  static String descriptor(Class<?> t) {
    if (t == int.class) {
      return "I";
    } else if (t == long.class) {
      return "J";
    } else if (t == boolean.class) {
      return "Z";
    } else if (t.isPrimitive() || t.isArray()) {
      return "?"; // no planned record has these
    }
    return "L" + t.getName().replace('.', '/') + ";";
  }

  private static int u1(byte[] c, int p) {
    return c[p] & 0xff;
  }

  private static int u2(byte[] c, int p) {
    return (c[p] & 0xff) << 8 | c[p + 1] & 0xff;
  }
}
