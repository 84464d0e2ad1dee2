// Natives of LifetimeOracle.java: each touches its argument only through the JNI function
// the oracle case is about, so the use the agent records comes from that function alone.
// (No GetObjectClass: that is a use too. Field ids come from the class passed in.)
#include <jni.h>

extern "C" {

JNIEXPORT jint JNICALL Java_LifetimeOracle_getInt(JNIEnv* env, jclass, jobject o, jclass c) {
  jfieldID f = env->GetFieldID(c, "v", "I");
  return f ? env->GetIntField(o, f) : -1;
}

JNIEXPORT void JNICALL Java_LifetimeOracle_setInt(JNIEnv* env, jclass, jobject o, jclass c,
                                                  jint v) {
  jfieldID f = env->GetFieldID(c, "v", "I");
  if (f) env->SetIntField(o, f, v);
}

JNIEXPORT jint JNICALL Java_LifetimeOracle_sumInts(JNIEnv* env, jclass, jintArray a) {
  jint buf[10];
  env->GetIntArrayRegion(a, 0, 10, buf);
  jint sum = 0;
  for (jint x : buf) sum += x;
  return sum;
}

JNIEXPORT void JNICALL Java_LifetimeOracle_fillBytes(JNIEnv* env, jclass, jbyteArray b) {
  jbyte buf[24];
  for (int i = 0; i < 24; ++i) buf[i] = static_cast<jbyte>(i);
  env->SetByteArrayRegion(b, 0, 24, buf);
}

JNIEXPORT jint JNICALL Java_LifetimeOracle_criticalSum(JNIEnv* env, jclass, jshortArray a) {
  auto* p = static_cast<jshort*>(env->GetPrimitiveArrayCritical(a, nullptr));
  if (!p) return -1;
  jint sum = 0;
  for (int i = 0; i < 12; ++i) sum += p[i];
  env->ReleasePrimitiveArrayCritical(a, p, JNI_ABORT);
  return sum;
}

JNIEXPORT jint JNICALL Java_LifetimeOracle_utfLength(JNIEnv* env, jclass, jstring s) {
  return env->GetStringUTFLength(s);
}

}  // extern "C"
