package dragnet.testdata.internal;

import dragnet.testdata.Service;

public class ServiceImpl implements Service {
  @Override
  public String name() {
    return "impl";
  }
}
