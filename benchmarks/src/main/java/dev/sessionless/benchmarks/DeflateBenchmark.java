package dev.sessionless.benchmarks;

import dev.sessionless.core.Algorithm;
import dev.sessionless.core.KeySet;
import dev.sessionless.core.TokenCodec;
import dev.sessionless.core.TokenKey;
import dev.sessionless.core.internal.Deflate;
import dev.sessionless.core.internal.Scratch;
import java.util.Base64;
import java.util.concurrent.TimeUnit;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The token's {@code zip: DEF} step alone, on a session token's claims payload (the matrix's
 * state of {@code stateBytes} JSON bytes, with the registered claims: 390 bytes at 256): core's
 * one-block fixed-Huffman encoder (what {@code Deflate} uses up to 512 bytes) beside a pooled,
 * reset JDK {@code Deflater} at the default level (zlib's dynamic block, what it would use
 * otherwise), and the JDK {@code Inflater} reading each one back (what every reader, ours or a
 * peer's, pays). Run:
 *
 * <pre>
 * java -jar benchmarks/target/benchmarks.jar DeflateBenchmark -f 2 -wi 3 -i 5
 * </pre>
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class DeflateBenchmark {
  /** The state's compact JSON size in bytes. */
  @Param({"64", "256"})
  public int stateBytes;

  private byte[] payload;
  private Scratch scratch;
  private Deflater deflater;
  private Inflater inflater;
  private byte[] out;
  private byte[] fixedBlock;
  private byte[] dynamicBlock;

  /** The payload, as the codec would write it, and one stream of each kind to inflate. */
  @Setup(Level.Trial)
  public void setUp() throws DataFormatException {
    TokenCodec signer = TokenCodec.builder().keys(KeySet.of(TokenKey.generate("h1", Algorithm.HS256)))
        .algorithm(Algorithm.HS256).issuer(Fixtures.ISSUER).audience(Fixtures.AUDIENCE).timeToLive(Fixtures.TTL)
        .build();
    String jws = signer.encode(Fixtures.claims(Fixtures.stateOfJsonSize(stateBytes)));
    payload = Base64.getUrlDecoder().decode(jws.split("\\.")[1]);
    out = new byte[2 * payload.length + 64]; // room for either stream, and for the payload inflated
    scratch = Scratch.take();
    deflater = new Deflater(Deflater.DEFAULT_COMPRESSION, true);
    inflater = new Inflater(true);
    int fixed = Deflate.deflate(payload, payload.length, false, scratch); // into the scratch's buffer
    fixedBlock = java.util.Arrays.copyOf(scratch.inflated(), fixed);
    dynamicBlock = java.util.Arrays.copyOf(out, zlibDeflate());
    if (inflate(fixedBlock) != payload.length || inflate(dynamicBlock) != payload.length) {
      throw new IllegalStateException("a stream did not inflate to the payload");
    }
  }

  /** Gives the scratch back and frees zlib's native memory. */
  @TearDown(Level.Trial)
  public void tearDown() {
    scratch.release();
    deflater.end();
    inflater.end();
  }

  /** Core's fixed-Huffman encoder (pooled tables, into the scratch buffer). */
  @Benchmark
  public int deflateFixedHuffman() {
    return Deflate.deflate(payload, payload.length, false, scratch);
  }

  /** The JDK's zlib at the default level, reset and reused as {@code Deflate} pools it. */
  @Benchmark
  public int deflateZlib() {
    return zlibDeflate();
  }

  /** The JDK's inflater reading core's fixed-code block. */
  @Benchmark
  public int inflateFixedBlock() throws DataFormatException {
    return inflate(fixedBlock);
  }

  /** The JDK's inflater reading zlib's dynamic block of the same payload. */
  @Benchmark
  public int inflateDynamicBlock() throws DataFormatException {
    return inflate(dynamicBlock);
  }

  private int zlibDeflate() {
    deflater.reset();
    deflater.setInput(payload);
    deflater.finish();
    return deflater.deflate(out);
  }

  private int inflate(byte[] block) throws DataFormatException {
    inflater.reset();
    inflater.setInput(block);
    return inflater.inflate(out);
  }
}
