# h2: runs a generated SQL script (30,000 orders inserted, indexes, 240 joins, aggregates,
# correlated subqueries, updates and deletes) on an in-memory H2 2.1 database (libh2-java)
# through a small JDBC driver program that prints every result.
setup() {
  generate Gen.java workload.sql 30000
  compile "$(jars h2)" "$HERE/Driver.java"
}
java_args() {
  CMD=(-cp "$W/classes:$(jars h2)" Driver "$W/workload.sql")
}
normalise() {
  cat "$1/stdout"
}
