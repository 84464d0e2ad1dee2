// Generates orders.xml (ORDERS orders of customers, each with line items) and report.xsl, a
// stylesheet that groups (keys), sorts, sums and formats. Fixed seed.
import java.io.*;
import java.nio.charset.StandardCharsets;
import java.util.Random;

public class Gen {
  static final String[] REGIONS = {"north", "south", "east", "west", "central"};
  static final String[] PRODUCTS = {"bolt", "nut", "gear", "spring", "valve", "pump", "shaft",
      "bearing", "seal", "flange", "pipe", "hose", "belt", "chain", "sprocket", "pulley"};

  public static void main(String[] args) throws IOException {
    File dir = new File(args[0]);
    int orders = Integer.parseInt(args[1]);
    Random r = new Random(7);
    try (PrintWriter w = writer(new File(dir, "orders.xml"))) {
      w.println("<?xml version=\"1.0\" encoding=\"UTF-8\"?>");
      w.println("<orders>");
      for (int i = 0; i < orders; i++) {
        int customer = r.nextInt(orders / 10 + 1);
        w.printf("<order id=\"o%d\" customer=\"c%d\" region=\"%s\" date=\"2026-%02d-%02d\">%n", i,
            customer, REGIONS[r.nextInt(REGIONS.length)], 1 + r.nextInt(12), 1 + r.nextInt(28));
        w.printf("  <note>%s order for customer %d, priority %d</note>%n",
            r.nextBoolean() ? "Regular" : "Rush", customer, r.nextInt(5));
        int items = 1 + r.nextInt(6);
        for (int k = 0; k < items; k++) {
          w.printf("  <item product=\"%s\" qty=\"%d\" price=\"%d.%02d\"/>%n",
              PRODUCTS[r.nextInt(PRODUCTS.length)], 1 + r.nextInt(50), 1 + r.nextInt(200),
              r.nextInt(100));
        }
        w.println("</order>");
      }
      w.println("</orders>");
    }
    try (PrintWriter w = writer(new File(dir, "report.xsl"))) {
      w.print("""
<?xml version="1.0" encoding="UTF-8"?>
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="html" indent="yes" encoding="UTF-8"/>
  <xsl:key name="by-customer" match="order" use="@customer"/>
  <xsl:key name="by-product" match="item" use="@product"/>
  <xsl:key name="by-region" match="order" use="@region"/>
  <xsl:template match="/orders">
    <html><body>
      <h1>Orders: <xsl:value-of select="count(order)"/></h1>
      <h2>Products</h2>
      <table>
        <xsl:for-each select="order/item[generate-id() = generate-id(key('by-product', @product)[1])]">
          <xsl:sort select="@product"/>
          <xsl:variable name="items" select="key('by-product', @product)"/>
          <tr><td><xsl:value-of select="translate(@product, 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')"/></td>
              <td><xsl:value-of select="count($items)"/></td>
              <td><xsl:value-of select="sum($items/@qty)"/></td>
              <td><xsl:value-of select="format-number(sum($items/@price) div count($items), '#,##0.00')"/></td></tr>
        </xsl:for-each>
      </table>
      <h2>Regions</h2>
      <xsl:for-each select="order[generate-id() = generate-id(key('by-region', @region)[1])]">
        <xsl:sort select="@region"/>
        <p><xsl:value-of select="@region"/>: <xsl:value-of select="count(key('by-region', @region))"/> orders,
           <xsl:value-of select="count(key('by-region', @region)[starts-with(note, 'Rush')])"/> rush</p>
      </xsl:for-each>
      <h2>Customers</h2>
      <xsl:for-each select="order[generate-id() = generate-id(key('by-customer', @customer)[1])]">
        <xsl:sort select="count(key('by-customer', @customer)/item)" data-type="number" order="descending"/>
        <xsl:sort select="@customer"/>
        <xsl:call-template name="customer">
          <xsl:with-param name="orders" select="key('by-customer', @customer)"/>
        </xsl:call-template>
      </xsl:for-each>
    </body></html>
  </xsl:template>
  <xsl:template name="customer">
    <xsl:param name="orders"/>
    <div class="customer">
      <h3><xsl:value-of select="concat('Customer ', substring-after($orders[1]/@customer, 'c'))"/></h3>
      <ul>
        <xsl:for-each select="$orders">
          <xsl:sort select="@date"/>
          <li><xsl:value-of select="@id"/> (<xsl:value-of select="@date"/>, <xsl:value-of select="normalize-space(substring-before(note, ' order'))"/>):
            <xsl:apply-templates select="item"/>
            total <xsl:call-template name="total"><xsl:with-param name="items" select="item"/></xsl:call-template></li>
        </xsl:for-each>
      </ul>
    </div>
  </xsl:template>
  <xsl:template match="item">
    <xsl:value-of select="@qty"/>x<xsl:value-of select="@product"/><xsl:if test="position() != last()">, </xsl:if>
  </xsl:template>
  <xsl:template name="total">
    <xsl:param name="items"/>
    <xsl:param name="acc" select="0"/>
    <xsl:choose>
      <xsl:when test="$items">
        <xsl:call-template name="total">
          <xsl:with-param name="items" select="$items[position() > 1]"/>
          <xsl:with-param name="acc" select="$acc + $items[1]/@qty * $items[1]/@price"/>
        </xsl:call-template>
      </xsl:when>
      <xsl:otherwise><xsl:value-of select="format-number($acc, '0.00')"/></xsl:otherwise>
    </xsl:choose>
  </xsl:template>
</xsl:stylesheet>
""");
    }
  }

  static PrintWriter writer(File f) throws IOException {
    return new PrintWriter(new BufferedWriter(new OutputStreamWriter(new FileOutputStream(f),
        StandardCharsets.UTF_8)));
  }
}
