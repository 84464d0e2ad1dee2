# xalan: transforms a generated orders.xml (16,000 orders, 5 MB) with a generated XSLT that
# groups with keys, sorts, sums and recurses, using Xalan-J 2.7.2's interpreter
# (libxalan2-java).
setup() {
  generate Gen.java "$W" 16000
}
java_args() {
  CMD=(-cp "$(jars xalan2 serializer)" org.apache.xalan.xslt.Process
       -IN "$W/orders.xml" -XSL "$W/report.xsl" -OUT "$1/report.html")
}
normalise() {
  cat "$1/stdout"
  echo "report.html $(wc -l < "$1/report.html") lines, sha256 $(sha256sum < "$1/report.html" | cut -c1-64)"
}
