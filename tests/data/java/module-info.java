// Compiled at test time by tests/unit/support/javac_fixture.cpp (javac --release 17 -g -parameters).
module dragnet.testdata {
  requires java.logging;
  exports dragnet.testdata;
  opens dragnet.testdata.internal to java.logging;
  uses dragnet.testdata.Service;
  provides dragnet.testdata.Service with dragnet.testdata.internal.ServiceImpl;
}
