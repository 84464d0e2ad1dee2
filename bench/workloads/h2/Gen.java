// Generates workload.sql: schema, ROWS customers/products and orders inserted as multi-row
// INSERTs, then indexes, joins, aggregates, subqueries, updates and deletes. Fixed seed.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.Random;

public class Gen {
  public static void main(String[] args) throws IOException {
    int orders = Integer.parseInt(args[1]);
    int customers = orders / 20, products = 500;
    Random r = new Random(11);
    try (PrintWriter w = new PrintWriter(new BufferedWriter(new OutputStreamWriter(
        new FileOutputStream(args[0]), StandardCharsets.UTF_8)))) {
      w.println("CREATE TABLE customer(id INT PRIMARY KEY, name VARCHAR(40), city VARCHAR(20), "
          + "since DATE);");
      w.println("CREATE TABLE product(id INT PRIMARY KEY, name VARCHAR(40), category INT, "
          + "price DECIMAL(10,2));");
      w.println("CREATE TABLE orders(id INT PRIMARY KEY, customer INT, product INT, qty INT, "
          + "odate DATE, note VARCHAR(80));");
      String[] cities = {"Oslo", "Lyon", "Porto", "Graz", "Turku", "Gent", "Brno", "Cork"};
      for (int i = 0; i < customers; i++) {
        w.printf("INSERT INTO customer VALUES(%d, 'customer %d', '%s', DATE '20%02d-%02d-%02d');%n",
            i, i, cities[r.nextInt(cities.length)], 10 + r.nextInt(16), 1 + r.nextInt(12),
            1 + r.nextInt(28));
      }
      for (int i = 0; i < products; i++) {
        w.printf("INSERT INTO product VALUES(%d, 'product %d', %d, %d.%02d);%n", i, i,
            r.nextInt(20), 1 + r.nextInt(500), r.nextInt(100));
      }
      for (int i = 0; i < orders; i += 100) {
        StringBuilder b = new StringBuilder("INSERT INTO orders VALUES");
        for (int k = i; k < Math.min(orders, i + 100); k++) {
          if (k > i) b.append(',');
          b.append(String.format("(%d, %d, %d, %d, DATE '2026-%02d-%02d', 'note %d %s')", k,
              r.nextInt(customers), r.nextInt(products), 1 + r.nextInt(20), 1 + r.nextInt(12),
              1 + r.nextInt(28), r.nextInt(1000), r.nextBoolean() ? "rush" : "regular"));
        }
        w.println(b + ";");
      }
      w.println("CREATE INDEX orders_customer ON orders(customer);");
      w.println("CREATE INDEX orders_product ON orders(product);");
      w.println("CREATE INDEX orders_day ON orders(odate);");
      for (int q = 0; q < 40; q++) {
        int c = r.nextInt(customers), cat = r.nextInt(20), m = 1 + r.nextInt(12);
        w.printf("SELECT c.city, COUNT(*), SUM(o.qty * p.price) FROM orders o JOIN customer c ON "
            + "c.id = o.customer JOIN product p ON p.id = o.product WHERE p.category = %d GROUP BY "
            + "c.city ORDER BY c.city;%n", cat);
        w.printf("SELECT o.id, o.qty, p.name FROM orders o JOIN product p ON p.id = o.product "
            + "WHERE o.customer = %d ORDER BY o.id;%n", c);
        w.printf("SELECT p.category, MONTH(o.odate), COUNT(*), AVG(o.qty) FROM orders o JOIN product"
            + " p ON p.id = o.product WHERE MONTH(o.odate) = %d GROUP BY p.category, MONTH(o.odate) "
            + "HAVING COUNT(*) > 10 ORDER BY 1, 2;%n", m);
        w.printf("SELECT c.id, c.name FROM customer c WHERE (SELECT SUM(qty) FROM orders o WHERE "
            + "o.customer = c.id AND o.note LIKE '%%rush') > %d ORDER BY c.id LIMIT 20;%n",
            60 + r.nextInt(60));
        w.printf("UPDATE orders SET qty = qty + 1 WHERE product = %d;%n", r.nextInt(products));
        w.printf("DELETE FROM orders WHERE id %% 997 = %d;%n", r.nextInt(997));
      }
      w.println("SELECT COUNT(*), SUM(qty), MIN(odate), MAX(odate) FROM orders;");
      w.println("SELECT category, COUNT(*) FROM product GROUP BY category ORDER BY category;");
    }
  }
}
