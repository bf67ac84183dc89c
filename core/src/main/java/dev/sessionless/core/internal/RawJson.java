package dev.sessionless.core.internal;

/** A state value carried over from a verified token as its JSON text, written back verbatim. */
public final class RawJson {
  private final String json;

  /** @param json one complete, already validated JSON value */
  public RawJson(String json) {
    this.json = json;
  }

  /** The JSON text. */
  public String json() {
    return json;
  }

  @Override
  public String toString() {
    return "RawJson[" + json.length() + " chars]";
  }
}
