# lucene: indexes 20,000 generated documents (synthetic Zipf-distributed vocabulary, 17 MB)
# into an in-memory Lucene 4.10 index with the English analyzer, then runs 400 term,
# boolean, phrase, prefix and fuzzy queries (liblucene4.10-java); prints hits and top 10.
setup() {
  generate Gen.java "$W" 20000
  compile "$(jars lucene-core-4.10.4 lucene-analyzers-common-4.10.4 lucene-queryparser-4.10.4)" \
    "$HERE/Driver.java"
}
java_args() {
  CMD=(-cp "$W/classes:$(jars lucene-core-4.10.4 lucene-analyzers-common-4.10.4 \
                              lucene-queryparser-4.10.4)" Driver "$W")
}
normalise() {
  cat "$1/stdout"
}
