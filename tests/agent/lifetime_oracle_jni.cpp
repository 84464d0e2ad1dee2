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

// b's critical region opens inside a's: JNI allows no call there, so its get is reported
// when the thread leaves both.
JNIEXPORT jint JNICALL Java_LifetimeOracle_nestedCritical(JNIEnv* env, jclass, jshortArray a,
                                                          jintArray b) {
  auto* p = static_cast<jshort*>(env->GetPrimitiveArrayCritical(a, nullptr));
  if (!p) return -1;
  auto* q = static_cast<jint*>(env->GetPrimitiveArrayCritical(b, nullptr));
  jint sum = p[0] + (q ? q[0] : 0);
  if (q) env->ReleasePrimitiveArrayCritical(b, q, JNI_ABORT);
  env->ReleasePrimitiveArrayCritical(a, p, JNI_ABORT);
  return sum;
}

// Writes c's elements, throws e, then releases c with the exception pending (JNI allows
// the release then): the release's copy back is a put.
JNIEXPORT void JNICALL Java_LifetimeOracle_throwAfterWrite(JNIEnv* env, jclass, jintArray c,
                                                           jthrowable e) {
  jint* p = env->GetIntArrayElements(c, nullptr);
  if (!p) return;
  p[0] = 1;
  env->Throw(e);
  env->ReleaseIntArrayElements(c, p, 0);
}

JNIEXPORT jint JNICALL Java_LifetimeOracle_utfLength(JNIEnv* env, jclass, jstring s) {
  return env->GetStringUTFLength(s);
}

}  // extern "C"
