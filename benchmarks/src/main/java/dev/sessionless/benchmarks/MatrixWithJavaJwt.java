package dev.sessionless.benchmarks;

import com.auth0.jwt.interfaces.DecodedJWT;
import dev.sessionless.core.TokenKey;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;

/**
 * The sizing matrix for the algorithms java-jwt also does (HS256, ES256): {@link MatrixBase}'s
 * rows plus java-jwt decoding, decoding and reading, and encoding.
 */
@State(Scope.Benchmark)
public abstract class MatrixWithJavaJwt extends MatrixBase {
  JavaJwtTokens javaJwt;

  /** {@link MatrixBase#init}, then java-jwt, checked the way the other peers are. */
  @Override
  void init(TokenKey key, boolean compress) throws Exception {
    super.init(key, compress);
    javaJwt = new JavaJwtTokens(keys, PeerTokens.Profile.SESSION);
    Fixtures.mustAccept("java-jwt", this::javaJwtDecode);
    checkRead("java-jwt", javaJwtDecodeRead());
    checkEncoded("java-jwt", javaJwtEncode());
  }

  @Benchmark
  public DecodedJWT javaJwtDecode() {
    return javaJwt.decode(token);
  }

  @Benchmark
  public Object javaJwtDecodeRead() {
    return javaJwt.decodeRead(token, "locale");
  }

  @Benchmark
  public String javaJwtEncode() {
    return javaJwt.encode(peerClaims);
  }
}
