// Generates work.py for Jython: FUNCS generated functions (Jython compiles each module to JVM
// bytecode at run time) plus fixed work over generated data: a word count, a stack-machine
// interpreter running a generated program, an object simulation, sorting, json and re.
// Fixed seed; the script prints only deterministic results.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.Random;

public class Gen {
  public static void main(String[] args) throws IOException {
    int funcs = Integer.parseInt(args[1]);
    int scale = Integer.parseInt(args[2]);  // percent of the full amount of work
    Random r = new Random(3);
    String[] ops = {"+", "-", "*", "^", "|", "&"};
    try (PrintWriter w = new PrintWriter(new BufferedWriter(new OutputStreamWriter(
        new FileOutputStream(args[0]), StandardCharsets.UTF_8)))) {
      w.println("import json, re");
      w.println("def scaled(n): return n * " + scale + " // 100");
      for (int i = 0; i < funcs; i++) {
        w.printf("def f%d(x, s):%n", i);
        w.printf("    acc = %d%n", r.nextInt(1000));
        w.printf("    for k in range(%d):%n", 3 + r.nextInt(8));
        w.printf("        acc = (acc %s (x + k * %d)) %% 1000003%n", ops[r.nextInt(ops.length)],
            1 + r.nextInt(97));
        w.printf("        if acc %% %d == 0:%n", 2 + r.nextInt(7));
        int k = 1 + r.nextInt(3);
        w.printf("            s = s[%d:] + s[:%d]%n", k, k);
        w.printf("    return acc, s.upper() if acc %% 2 else s%n");
      }
      w.println("FUNCS = [" + joinNames(funcs) + "]");
      w.print("""

class Lcg(object):
    def __init__(self, seed):
        self.state = seed
    def next(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7fffffff
        return (self.state >> 8) % n

WORDS = ['alpha', 'beta', 'gamma', 'delta', 'epsilon', 'zeta', 'eta', 'theta', 'iota',
         'kappa', 'lambda', 'mu', 'nu', 'xi', 'omicron', 'pi', 'rho', 'sigma', 'tau']

def word_count(rng, n):
    counts = {}
    text = []
    for i in range(n):
        w = WORDS[rng.next(len(WORDS))] + str(rng.next(50))
        text.append(w)
        counts[w] = counts.get(w, 0) + 1
    joined = ' '.join(text)
    found = len(re.findall(r'\\b(?:alpha|omega|pi)\\d*7\\b', joined))
    top = sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))[:5]
    return top, found, len(joined)

def interpret(code, steps):
    stack, pc, executed, out = [0, 1], 0, 0, 0
    while executed < steps:
        op, arg = code[pc]
        executed += 1
        if op == 'push':
            stack.append(arg)
        elif op == 'add':
            stack.append((stack.pop() + stack.pop()) % 65521)
        elif op == 'mul':
            stack.append((stack.pop() * stack.pop()) % 65521)
        elif op == 'dup':
            stack.append(stack[-1])
        elif op == 'swap':
            stack[-1], stack[-2] = stack[-2], stack[-1]
        elif op == 'out':
            out = (out * 31 + stack[-1]) % 1000000007
        if len(stack) > 64:
            del stack[:32]
        if len(stack) < 2:
            stack.extend([1, 2])
        pc = (pc + 1) % len(code)
    return out, len(stack)

class Particle(object):
    __slots__ = ('x', 'y', 'vx', 'vy')
    def __init__(self, x, y, vx, vy):
        self.x, self.y, self.vx, self.vy = x, y, vx, vy
    def step(self):
        self.x += self.vx
        self.y += self.vy
        if self.x < 0 or self.x > 1000: self.vx = -self.vx
        if self.y < 0 or self.y > 1000: self.vy = -self.vy

def simulate(rng, n, steps):
    ps = [Particle(rng.next(1000), rng.next(1000), rng.next(7) - 3, rng.next(7) - 3)
          for _ in range(n)]
    for _ in range(steps):
        for p in ps:
            p.step()
    grid = {}
    for p in ps:
        key = (p.x // 100, p.y // 100)
        grid[key] = grid.get(key, 0) + 1
    return sum(p.x + p.y for p in ps), max(grid.values()), len(grid)

def main():
    rng = Lcg(12345)
    print('words', word_count(rng, scaled(40000)))
    names = ['push', 'add', 'mul', 'dup', 'swap', 'out']
    code = [(names[rng.next(len(names))], rng.next(100)) for _ in range(500)]
    print('interp', interpret(code, scaled(300000)))
    print('particles', simulate(rng, 300, scaled(100)))
    total, s = 0, 'dragnet'
    for i in range(scaled(200)):
        for f in FUNCS:
            v, s = f(i, s)
            total = (total + v) % 1000000007
    print('funcs', total, s)
    data = [{'id': i, 'name': 'n%d' % rng.next(1000), 'tags': [rng.next(10) for _ in range(5)]}
            for i in range(scaled(5000))]
    text = json.dumps(data, sort_keys=True)
    back = json.loads(text)
    print('json', len(text), sum(sum(d['tags']) for d in back))
    nums = [rng.next(1000000) for _ in range(scaled(100000))]
    nums.sort()
    print('sort', nums[0], nums[len(nums) // 2], nums[-1])

main()
""");
    }
  }

  static String joinNames(int n) {
    StringBuilder b = new StringBuilder();
    for (int i = 0; i < n; i++) b.append(i > 0 ? ", " : "").append('f').append(i);
    return b.toString();
  }
}
