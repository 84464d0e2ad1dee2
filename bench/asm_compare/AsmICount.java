// The BIT icount task done with ASM 9.4, the reference point for dragnet's throughput
// (docs/PERFORMANCE.md, "dragnet vs ASM"). Built and run by scripts/bench-asm.sh against
// Debian's libasm-java: /usr/share/java/asm-9.4.jar and asm-tree-9.4.jar.
//
// The task, identical to dragnet's `icount` tool (src/tools/bit_tools.cpp): every method
// with code gets a site id (ids count up from 0 over the whole input, in input order; a
// site-table line "id\tclass\tname\tdescriptor" is recorded), and at the start of every
// basic block the probe
//     <push methodId>; <push blockSize>; invokestatic dragnet/tools/ICount.block(II)V
// is inserted, where <push v> is iconst_<v> / bipush / sipush / ldc, the shortest form (as
// dragnet's Patch::pushInt). Leaders: the first instruction, branch and switch targets
// (jsr's too), exception-handler starts, and the instruction after a branch, a switch, a
// return, athrow, jsr or ret. A block's size counts real instructions (not labels, line
// numbers or frames). Every label at the leader (branch targets, try ranges, handlers, line
// numbers, local-variable ranges, stack-map frames) ends up in front of the probe, so
// whatever reached the block runs the probe first; as in dragnet, Uninitialized(label)
// frame entries stay pinned to their `new`.
//
// How it is written (what an ASM user would write for this): the class goes
// ClassReader -> ClassVisitor -> ClassWriter(reader, 0) (the writer starts from the reader's
// constant pool). Block sizes are only known at a block's end, so each method with code is
// buffered in a tree-API MethodNode (the idiomatic "visit into a MethodNode, transform,
// accept(next)" pattern), per method, not per class. Targets are marked while the method
// is being visited (labels are a LabelNode subclass with a flag, via getLabelNode), so
// visitEnd needs one walk over the instruction list, inserting each block's probe when the
// next leader is found. Frames are passed through as read (ClassReader flags 0: compressed
// frames, no EXPAND_FRAMES; ClassWriter flags 0: no COMPUTE_FRAMES / COMPUTE_MAXS);
// max_stack grows by 2 by hand. Abstract and native methods go straight to the writer
// (ASM then copies them without decoding). A method that would exceed 64 KiB is left
// unchanged (the class is redone without instrumenting it), as dragnet does.
//
// Modes:
//   bench [--warmup W] [--iterations K] [--task icount|passthrough] JAR...
//       reads every *.class entry of the jars into memory, runs the task W times
//       (warm-up, untimed), then K times (timed, single thread), and prints
//       "RESULT asm ..." with MB/s (10^6 bytes of input class files per second), by wall
//       clock and by process CPU time (all JVM threads: GC and JIT included).
//       --task passthrough: the same pipeline (each method through a MethodNode) without
//       inserting anything, to see what the probes themselves cost.
//   dump DIR JAR...       writes the instrumented classes to DIR/<jar file name>/<entry>
//   compare DIR_A DIR_B JAR...
//       for every class entry, compares the probes (method id, block size) of each method,
//       in code order, in DIR_A's and DIR_B's copies (e.g. the ASM and the dragnet output)
//   verify DIR... -- JAR...
//       links (and so verifies) every class of the jars, and of each DIR holding the same
//       entries, each set in its own class loader (parent: the platform loader), and
//       reports per set the classes that link, fail verification or miss a dependency,
//       plus every class whose outcome differs from the original's
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.objectweb.asm.ClassReader;
import org.objectweb.asm.ClassVisitor;
import org.objectweb.asm.ClassWriter;
import org.objectweb.asm.Label;
import org.objectweb.asm.MethodTooLargeException;
import org.objectweb.asm.MethodVisitor;
import org.objectweb.asm.Opcodes;
import org.objectweb.asm.tree.AbstractInsnNode;
import org.objectweb.asm.tree.FrameNode;
import org.objectweb.asm.tree.InsnList;
import org.objectweb.asm.tree.InsnNode;
import org.objectweb.asm.tree.IntInsnNode;
import org.objectweb.asm.tree.LabelNode;
import org.objectweb.asm.tree.LdcInsnNode;
import org.objectweb.asm.tree.LookupSwitchInsnNode;
import org.objectweb.asm.tree.MethodInsnNode;
import org.objectweb.asm.tree.MethodNode;
import org.objectweb.asm.tree.TableSwitchInsnNode;

public final class AsmICount {
  static final String OWNER = "dragnet/tools/ICount";
  static final String NAME = "block";
  static final String DESC = "(II)V";

  // ---------------------------------------------------------------------------------------
  // The tool: one run over any number of classes (ids, site table, counts).

  static final class Tool {
    int nextId;
    final ArrayList<String> table = new ArrayList<>();
    long probes;
    long unchangedMethods;
    static boolean insertProbes = true;  // false: --task passthrough

    Tool(int idBase) {
      nextId = idBase;
    }

    int newSite(String cls, String name, String desc) {
      int id = nextId++;
      table.add(id + "\t" + cls + "\t" + name + "\t" + desc);
      return id;
    }

    byte[] transform(byte[] bytes) {
      int idMark = nextId, tableMark = table.size();
      long probeMark = probes;
      Set<String> skip = null;
      while (true) {
        ClassReader reader = new ClassReader(bytes);
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new ICountClass(writer, this, skip), 0);
        try {
          return writer.toByteArray();
        } catch (MethodTooLargeException e) {
          // Leave that method as it was, and redo the class (ids as if it had no code).
          if (skip == null) skip = new HashSet<>();
          if (!skip.add(e.getMethodName() + e.getDescriptor())) throw e;
          unchangedMethods++;
          nextId = idMark;
          table.subList(tableMark, table.size()).clear();
          probes = probeMark;
        }
      }
    }
  }

  static final class ICountClass extends ClassVisitor {
    private final Tool tool;
    private final Set<String> skip;
    private String className;
    private boolean runtimeClass;

    ICountClass(ClassVisitor next, Tool tool, Set<String> skip) {
      super(Opcodes.ASM9, next);
      this.tool = tool;
      this.skip = skip;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName,
        String[] interfaces) {
      className = name;
      // The tools' own runtime must never call itself (as dragnet's BitTool::instrument).
      runtimeClass = name.startsWith("dragnet/rt/") || name.startsWith("dragnet/tools/");
      super.visit(version, access, name, signature, superName, interfaces);
    }

    @Override
    public MethodVisitor visitMethod(int access, String name, String descriptor,
        String signature, String[] exceptions) {
      MethodVisitor mv = super.visitMethod(access, name, descriptor, signature, exceptions);
      if (runtimeClass || (access & (Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE)) != 0
          || (skip != null && skip.contains(name + descriptor))) {
        return mv;
      }
      return new ICountMethod(access, name, descriptor, signature, exceptions, mv, tool,
          className);
    }
  }

  // A label that knows whether it starts a block (a branch/switch target or a handler).
  static final class MarkLabel extends LabelNode {
    boolean target;
  }

  static final class ICountMethod extends MethodNode {
    private final MethodVisitor next;
    private final Tool tool;
    private final String className;
    private boolean uninitializedInFrames;

    ICountMethod(int access, String name, String descriptor, String signature,
        String[] exceptions, MethodVisitor next, Tool tool, String className) {
      super(Opcodes.ASM9, access, name, descriptor, signature, exceptions);
      this.next = next;
      this.tool = tool;
      this.className = className;
    }

    @Override
    protected LabelNode getLabelNode(Label label) {
      if (!(label.info instanceof LabelNode)) label.info = new MarkLabel();
      return (LabelNode) label.info;
    }

    private void mark(Label l) {
      ((MarkLabel) getLabelNode(l)).target = true;
    }

    @Override
    public void visitJumpInsn(int opcode, Label label) {
      mark(label);
      super.visitJumpInsn(opcode, label);
    }

    @Override
    public void visitTableSwitchInsn(int min, int max, Label dflt, Label... labels) {
      mark(dflt);
      for (Label l : labels) mark(l);
      super.visitTableSwitchInsn(min, max, dflt, labels);
    }

    @Override
    public void visitLookupSwitchInsn(Label dflt, int[] keys, Label[] labels) {
      mark(dflt);
      for (Label l : labels) mark(l);
      super.visitLookupSwitchInsn(dflt, keys, labels);
    }

    @Override
    public void visitTryCatchBlock(Label start, Label end, Label handler, String type) {
      mark(handler);
      super.visitTryCatchBlock(start, end, handler, type);
    }

    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack,
        Object[] stack) {
      if (!uninitializedInFrames) {
        for (int i = 0; i < numLocal; i++) if (local[i] instanceof Label) uninitializedInFrames = true;
        for (int i = 0; i < numStack; i++) if (stack[i] instanceof Label) uninitializedInFrames = true;
      }
      super.visitFrame(type, numLocal, local, numStack, stack);
    }

    @Override
    public void visitEnd() {
      if (instructions.size() > 0 && Tool.insertProbes) {
        instrument(tool.newSite(className, name, desc));
      }
      accept(next);
    }

    private void instrument(int id) {
      AbstractInsnNode leader = null;
      int size = 0;
      boolean startsBlock = true;  // the next real instruction is a leader
      for (AbstractInsnNode n = instructions.getFirst(); n != null; n = n.getNext()) {
        int op = n.getOpcode();
        if (op < 0) {  // label, line number or frame
          if (n instanceof MarkLabel && ((MarkLabel) n).target) startsBlock = true;
          continue;
        }
        if (startsBlock) {
          if (leader != null) probe(leader, id, size);
          leader = n;
          size = 0;
          startsBlock = false;
        }
        size++;
        switch (n.getType()) {
          case AbstractInsnNode.JUMP_INSN:  // if*, goto, jsr
          case AbstractInsnNode.TABLESWITCH_INSN:
          case AbstractInsnNode.LOOKUPSWITCH_INSN:
            startsBlock = true;
            break;
          default:
            if ((op >= Opcodes.IRETURN && op <= Opcodes.RETURN) || op == Opcodes.ATHROW
                || op == Opcodes.RET) {
              startsBlock = true;
            }
        }
      }
      if (leader != null) probe(leader, id, size);
      maxStack += 2;  // the probe's two ints; frames are unchanged (the probe is neutral)
    }

    private void probe(AbstractInsnNode leader, int id, int size) {
      InsnList p = new InsnList();
      p.add(push(id));
      p.add(push(size));
      p.add(new MethodInsnNode(Opcodes.INVOKESTATIC, OWNER, NAME, DESC, false));
      instructions.insertBefore(leader, p);
      tool.probes++;
      if (uninitializedInFrames && leader.getOpcode() == Opcodes.NEW) pin(leader);
    }

    // Frames name a `new` by the label in front of it; that label now marks the probe, so
    // give the `new` a label of its own and let Uninitialized entries use it.
    private void pin(AbstractInsnNode newInsn) {
      LabelNode own = new LabelNode();
      AbstractInsnNode probeStart = newInsn;
      for (int i = 0; i < 3; i++) probeStart = probeStart.getPrevious();
      Set<LabelNode> old = new HashSet<>();
      for (AbstractInsnNode n = probeStart.getPrevious(); n != null && n.getOpcode() < 0;
          n = n.getPrevious()) {
        if (n instanceof LabelNode) old.add((LabelNode) n);
      }
      instructions.insertBefore(newInsn, own);
      for (AbstractInsnNode n = instructions.getFirst(); n != null; n = n.getNext()) {
        if (!(n instanceof FrameNode)) continue;
        FrameNode f = (FrameNode) n;
        for (List<Object> list : Arrays.asList(f.local, f.stack)) {
          if (list == null) continue;
          for (int i = 0; i < list.size(); i++) {
            if (old.contains(list.get(i))) list.set(i, own);
          }
        }
      }
    }

    private static AbstractInsnNode push(int v) {
      if (v >= -1 && v <= 5) return new InsnNode(Opcodes.ICONST_0 + v);
      if (v >= Byte.MIN_VALUE && v <= Byte.MAX_VALUE) return new IntInsnNode(Opcodes.BIPUSH, v);
      if (v >= Short.MIN_VALUE && v <= Short.MAX_VALUE) {
        return new IntInsnNode(Opcodes.SIPUSH, v);
      }
      return new LdcInsnNode(v);
    }
  }

  // ---------------------------------------------------------------------------------------
  // Input: every *.class entry of the jars, in jar order and central-directory order (the
  // order dragnet_icount_bench reads them in, so method ids agree).

  static final class Entry {
    final String jar, name;
    final byte[] bytes;

    Entry(String jar, String name, byte[] bytes) {
      this.jar = jar;
      this.name = name;
      this.bytes = bytes;
    }
  }

  static List<Entry> readJars(List<String> jars) throws IOException {
    List<Entry> out = new ArrayList<>();
    for (String jar : jars) {
      String base = Paths.get(jar).getFileName().toString();
      try (ZipFile z = new ZipFile(jar)) {
        for (Enumeration<? extends ZipEntry> e = z.entries(); e.hasMoreElements(); ) {
          ZipEntry ze = e.nextElement();
          if (ze.isDirectory() || !ze.getName().endsWith(".class")) continue;
          try (InputStream in = z.getInputStream(ze)) {
            out.add(new Entry(base, ze.getName(), in.readAllBytes()));
          }
        }
      }
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------

  static long lastOut;  // output bytes of the last run (also keeps the work observable)

  static void bench(int warmup, int iterations, List<String> jars) throws IOException {
    List<Entry> entries = readJars(jars);
    byte[][] classes = new byte[entries.size()][];
    long bytes = 0;
    for (int i = 0; i < classes.length; i++) {
      classes[i] = entries.get(i).bytes;
      bytes += classes[i].length;
    }
    System.out.printf("asm: %d classes, %d bytes (%.1f MB) from %d jars; java %s, %s%n",
        classes.length, bytes, bytes / 1e6, jars.size(), System.getProperty("java.version"),
        ClassReader.class.getPackage().getImplementationVersion());
    Tool last = null;
    for (int w = 0; w < warmup; w++) {
      long t0 = System.nanoTime();
      last = runOnce(classes);
      double s = (System.nanoTime() - t0) / 1e9;
      System.out.printf("asm warm-up %d: %.3f s, %.1f MB/s%n", w + 1, s, bytes / 1e6 / s);
    }
    com.sun.management.OperatingSystemMXBean os =
        (com.sun.management.OperatingSystemMXBean)
            java.lang.management.ManagementFactory.getOperatingSystemMXBean();
    double total = 0;
    long cpu0 = os.getProcessCpuTime();
    for (int k = 0; k < iterations; k++) {
      long t0 = System.nanoTime(), c0 = os.getProcessCpuTime();
      last = runOnce(classes);
      double s = (System.nanoTime() - t0) / 1e9, c = (os.getProcessCpuTime() - c0) / 1e9;
      total += s;
      System.out.printf("asm iteration %d: %.3f s, %.1f MB/s (process CPU %.3f s)%n", k + 1, s,
          bytes / 1e6 / s, c);
    }
    double cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
    double mbps = bytes / 1e6 * iterations / total;
    System.out.printf(
        "RESULT asm task=%s mbps=%.2f cpu_mbps=%.2f seconds=%.4f cpu_seconds=%.4f iterations=%d "
            + "bytes=%d classes=%d methods=%d "
            + "probes=%d unchanged=%d failed=%d outbytes=%d%n",
        Tool.insertProbes ? "icount" : "passthrough", mbps, bytes / 1e6 * iterations / cpu, total, cpu, iterations, bytes, classes.length, last.table.size(), last.probes,
        last.unchangedMethods, failed, lastOut);
  }

  static long failed;

  static Tool runOnce(byte[][] classes) {
    Tool tool = new Tool(0);
    long out = 0;
    long bad = 0;
    for (byte[] c : classes) {
      try {
        out += tool.transform(c).length;
      } catch (RuntimeException e) {
        bad++;
      }
    }
    failed = bad;
    lastOut = out;
    return tool;
  }

  static void dump(Path dir, List<String> jars) throws IOException {
    List<Entry> entries = readJars(jars);
    Tool tool = new Tool(0);
    long bad = 0;
    for (Entry e : entries) {
      byte[] out;
      try {
        out = tool.transform(e.bytes);
      } catch (RuntimeException ex) {
        if (++bad <= 10) System.out.println("asm failed: " + e.jar + "!" + e.name + ": " + ex);
        continue;
      }
      Path p = dir.resolve(e.jar).resolve(e.name);
      Files.createDirectories(p.getParent());
      Files.write(p, out);
    }
    System.out.printf("asm dump: %d classes, %d methods, %d probes, %d methods unchanged, "
        + "%d classes failed -> %s%n", entries.size(), tool.table.size(), tool.probes,
        tool.unchangedMethods, bad, dir);
  }

  // ---------------------------------------------------------------------------------------
  // compare: the probes of each method, as "id:size" in code order.

  static Map<String, List<String>> probes(byte[] bytes) {
    Map<String, List<String>> byMethod = new LinkedHashMap<>();
    new ClassReader(bytes).accept(new ClassVisitor(Opcodes.ASM9) {
      @Override
      public MethodVisitor visitMethod(int access, String name, String descriptor,
          String signature, String[] exceptions) {
        List<String> list = new ArrayList<>();
        byMethod.put(name + descriptor, list);
        return new MethodVisitor(Opcodes.ASM9) {
          final Integer[] last = new Integer[2];  // the last two int constants pushed

          void pushed(Integer v) {
            last[0] = last[1];
            last[1] = v;
          }

          @Override
          public void visitInsn(int opcode) {
            pushed(opcode >= Opcodes.ICONST_M1 && opcode <= Opcodes.ICONST_5
                ? opcode - Opcodes.ICONST_0 : null);
          }

          @Override
          public void visitIntInsn(int opcode, int operand) {
            pushed(opcode == Opcodes.NEWARRAY ? null : operand);
          }

          @Override
          public void visitLdcInsn(Object value) {
            pushed(value instanceof Integer ? (Integer) value : null);
          }

          @Override
          public void visitMethodInsn(int opcode, String owner, String name, String desc,
              boolean itf) {
            if (opcode == Opcodes.INVOKESTATIC && owner.equals(OWNER) && name.equals(NAME)) {
              list.add(last[0] + ":" + last[1]);
            }
            pushed(null);
          }

          @Override
          public void visitVarInsn(int opcode, int var) {
            pushed(null);
          }

          @Override
          public void visitTypeInsn(int opcode, String type) {
            pushed(null);
          }

          @Override
          public void visitFieldInsn(int opcode, String owner, String name, String desc) {
            pushed(null);
          }

          @Override
          public void visitJumpInsn(int opcode, Label label) {
            pushed(null);
          }
        };
      }
    }, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
    return byMethod;
  }

  static void compare(Path a, Path b, List<String> jars) throws IOException {
    List<Entry> entries = readJars(jars);
    long classes = 0, missing = 0, differ = 0, probesA = 0, probesB = 0, sizeOnly = 0;
    for (Entry e : entries) {
      Path pa = a.resolve(e.jar).resolve(e.name), pb = b.resolve(e.jar).resolve(e.name);
      if (!Files.exists(pa) || !Files.exists(pb)) {
        if (++missing <= 10) {
          System.out.println("missing in " + (Files.exists(pa) ? b : a) + ": " + e.jar + "!"
              + e.name);
        }
        continue;
      }
      classes++;
      Map<String, List<String>> ma = probes(Files.readAllBytes(pa));
      Map<String, List<String>> mb = probes(Files.readAllBytes(pb));
      for (List<String> l : ma.values()) probesA += l.size();
      for (List<String> l : mb.values()) probesB += l.size();
      if (ma.equals(mb)) continue;
      // Same blocks with other ids (ids shift after a method one side left unchanged)?
      if (sizes(ma).equals(sizes(mb))) {
        sizeOnly++;
        continue;
      }
      if (++differ <= 10) {
        for (String m : ma.keySet()) {
          if (!ma.get(m).equals(mb.get(m))) {
            System.out.println("differ: " + e.jar + "!" + e.name + " " + m + "\n  " + a + ": "
                + ma.get(m) + "\n  " + b + ": " + mb.get(m));
            break;
          }
        }
      }
    }
    System.out.printf("compare: %d classes compared, %d missing on one side; probes %d (%s) vs "
            + "%d (%s); %d classes with different blocks, %d with the same blocks but other "
            + "ids%n", classes, missing, probesA, a, probesB, b, differ, sizeOnly);
  }

  static Map<String, List<String>> sizes(Map<String, List<String>> m) {
    Map<String, List<String>> out = new HashMap<>();
    for (Map.Entry<String, List<String>> e : m.entrySet()) {
      List<String> s = new ArrayList<>();
      for (String p : e.getValue()) s.add(p.substring(p.indexOf(':') + 1));
      out.put(e.getKey(), s);
    }
    return out;
  }

  // ---------------------------------------------------------------------------------------
  // verify: link every class of a set in a loader of its own.

  static final class SetLoader extends ClassLoader {
    final Map<String, byte[]> classes;

    SetLoader(String name, Map<String, byte[]> classes) {
      super(name, ClassLoader.getPlatformClassLoader());
      this.classes = classes;
    }

    @Override
    protected Class<?> findClass(String name) throws ClassNotFoundException {
      byte[] b = classes.get(name);
      if (b == null) throw new ClassNotFoundException(name);
      return defineClass(name, b, 0, b.length);
    }
  }

  static boolean verifiable(Entry e) {
    return !e.name.startsWith("META-INF/") && !e.name.endsWith("module-info.class")
        && !e.name.endsWith("package-info.class");
  }

  // Outcome per binary name: "OK", or the Throwable's class (and message for VerifyError).
  static Map<String, String> link(String setName, Map<String, byte[]> set) {
    SetLoader loader = new SetLoader(setName, set);
    Map<String, String> out = new LinkedHashMap<>();
    for (String name : set.keySet()) {
      String outcome;
      try {
        Class<?> c = Class.forName(name, false, loader);
        c.getDeclaredMethods();  // links, which verifies
        outcome = "OK";
      } catch (VerifyError | ClassFormatError e) {
        outcome = e.getClass().getName() + ": " + e.getMessage();
      } catch (Throwable e) {
        outcome = e.getClass().getName();
      }
      out.put(name, outcome);
    }
    return out;
  }

  static Map<String, byte[]> set(List<Entry> entries, Path dir) throws IOException {
    Map<String, byte[]> set = new LinkedHashMap<>();
    for (Entry e : entries) {
      if (!verifiable(e)) continue;
      byte[] b = e.bytes;
      if (dir != null) {
        Path p = dir.resolve(e.jar).resolve(e.name);
        if (!Files.exists(p)) continue;
        b = Files.readAllBytes(p);
      }
      String name = new ClassReader(b).getClassName().replace('/', '.');
      set.putIfAbsent(name, b);
    }
    return set;
  }

  static void summarize(String label, Map<String, String> r) {
    long ok = 0, verify = 0, other = 0;
    for (String v : r.values()) {
      if (v.equals("OK")) ok++;
      else if (v.startsWith("java.lang.VerifyError") || v.startsWith("java.lang.ClassFormatError")) verify++;
      else other++;
    }
    System.out.printf("verify %s: %d classes: %d linked (verified), %d VerifyError/"
        + "ClassFormatError, %d other (a dependency outside the jars)%n", label, r.size(), ok,
        verify, other);
  }

  static void verify(List<Path> dirs, List<String> jars) throws IOException {
    List<Entry> entries = readJars(jars);
    Map<String, String> original = link("original", set(entries, null));
    summarize("original", original);
    for (Path d : dirs) {
      Map<String, String> r = link(d.toString(), set(entries, d));
      summarize(d.toString(), r);
      long changed = 0;
      for (Map.Entry<String, String> e : r.entrySet()) {
        String before = original.get(e.getKey());
        if (e.getValue().equals(before)) continue;
        if (++changed <= 20) {
          System.out.println("  outcome changed: " + e.getKey() + ": " + before + " -> "
              + e.getValue());
        }
      }
      System.out.printf("verify %s: %d classes whose outcome differs from the original%n", d,
          changed);
    }
  }

  // ---------------------------------------------------------------------------------------

  public static void main(String[] args) throws Exception {
    List<String> a = new ArrayList<>(Arrays.asList(args));
    if (a.isEmpty()) usage();
    String mode = a.remove(0);
    switch (mode) {
      case "bench": {
        int warmup = 10, iterations = 5;
        while (!a.isEmpty() && a.get(0).startsWith("--")) {
          String opt = a.remove(0);
          if (opt.equals("--warmup")) warmup = Integer.parseInt(a.remove(0));
          else if (opt.equals("--iterations")) iterations = Integer.parseInt(a.remove(0));
          else if (opt.equals("--task")) {
            String t = a.remove(0);
            if (t.equals("passthrough")) Tool.insertProbes = false;
            else if (!t.equals("icount")) usage();
          } else usage();
        }
        bench(warmup, iterations, a);
        break;
      }
      case "dump":
        dump(Paths.get(a.remove(0)), a);
        break;
      case "compare":
        compare(Paths.get(a.remove(0)), Paths.get(a.remove(0)), a);
        break;
      case "verify": {
        List<Path> dirs = new ArrayList<>();
        while (!a.isEmpty() && !a.get(0).equals("--")) dirs.add(Paths.get(a.remove(0)));
        if (a.isEmpty()) usage();
        a.remove(0);
        verify(dirs, a);
        break;
      }
      default:
        usage();
    }
  }

  static void usage() {
    System.err.println("usage: AsmICount bench [--warmup W] [--iterations K] "
        + "[--task icount|passthrough] JAR...\n"
        + "       AsmICount dump DIR JAR...\n"
        + "       AsmICount compare DIR_A DIR_B JAR...\n"
        + "       AsmICount verify DIR... -- JAR...");
    System.exit(2);
  }
}
