<?xml version="1.0" encoding="UTF-8"?>
<!-- Exercises keys and Muenchian grouping, sorting (text, number, descending), recursion with
     parameters, modes, xsl:number, format-number, string functions, attribute value templates,
     conditional logic and escaping in HTML output. -->
<xsl:stylesheet version="1.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">
  <xsl:output method="html" indent="yes" encoding="UTF-8"/>
  <xsl:decimal-format name="eu" decimal-separator="," grouping-separator="."/>

  <xsl:key name="by-category" match="book" use="@category"/>
  <xsl:key name="by-author" match="book" use="author"/>
  <xsl:key name="by-tag" match="tag" use="."/>

  <xsl:param name="threshold" select="50"/>

  <xsl:template match="/">
    <html>
      <head><title><xsl:value-of select="library/@name"/></title></head>
      <body>
        <xsl:apply-templates select="library"/>
      </body>
    </html>
  </xsl:template>

  <xsl:template match="library">
    <h1><xsl:value-of select="@name"/> (since <xsl:value-of select="@founded"/>)</h1>
    <p>
      <xsl:value-of select="count(book)"/> books, total stock
      <xsl:value-of select="sum(book/stock)"/>, inventory value
      <xsl:call-template name="inventory-value">
        <xsl:with-param name="books" select="book"/>
      </xsl:call-template>
      EUR; average price
      <xsl:value-of select="format-number(sum(book/price) div count(book), '#.##0,00', 'eu')"/>.
    </p>

    <h2>By category</h2>
    <xsl:for-each select="book[generate-id() = generate-id(key('by-category', @category)[1])]">
      <xsl:sort select="@category"/>
      <xsl:variable name="cat" select="key('by-category', @category)"/>
      <h3 id="cat-{@category}">
        <xsl:number value="position()" format="I"/>.
        <xsl:value-of select="translate(substring(@category, 1, 1), 'abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ')"/>
        <xsl:value-of select="substring(@category, 2)"/>
        (<xsl:value-of select="count($cat)"/>)
      </h3>
      <table class="books">
        <tr><th>#</th><th>Title</th><th>Author</th><th>Year</th><th>Price</th><th>Status</th></tr>
        <xsl:apply-templates select="$cat" mode="row">
          <xsl:sort select="price" data-type="number" order="descending"/>
          <xsl:sort select="title"/>
        </xsl:apply-templates>
      </table>
    </xsl:for-each>

    <h2>Authors with several books</h2>
    <ul>
      <xsl:for-each select="book[generate-id() = generate-id(key('by-author', author)[1])]">
        <xsl:sort select="substring-after(author, ' ')"/>
        <xsl:sort select="author"/>
        <xsl:variable name="mine" select="key('by-author', author)"/>
        <xsl:if test="count($mine) &gt; 2">
          <li>
            <xsl:value-of select="author"/>: <xsl:value-of select="count($mine)"/> books,
            oldest <xsl:for-each select="$mine"><xsl:sort select="@year" data-type="number"/><xsl:if test="position() = 1"><xsl:value-of select="@year"/></xsl:if></xsl:for-each>
            <xsl:text>, titles: </xsl:text>
            <xsl:for-each select="$mine/title">
              <xsl:sort select="."/>
              <xsl:value-of select="."/>
              <xsl:if test="position() != last()">; </xsl:if>
            </xsl:for-each>
          </li>
        </xsl:if>
      </xsl:for-each>
    </ul>

    <h2>Tags</h2>
    <dl>
      <xsl:for-each select="//tag[generate-id() = generate-id(key('by-tag', .)[1])]">
        <xsl:sort select="count(key('by-tag', .))" data-type="number" order="descending"/>
        <xsl:sort select="."/>
        <dt><xsl:value-of select="."/></dt>
        <dd><xsl:value-of select="count(key('by-tag', .))"/> books:
          <xsl:for-each select="key('by-tag', .)/ancestor::book">
            <xsl:sort select="@id"/>
            <a href="#{@id}"><xsl:value-of select="@id"/></a>
            <xsl:if test="position() != last()">, </xsl:if>
          </xsl:for-each>
        </dd>
      </xsl:for-each>
    </dl>

    <h2>Notes</h2>
    <xsl:apply-templates select="book/note"/>

    <h2>Decades</h2>
    <pre>
      <xsl:call-template name="histogram">
        <xsl:with-param name="from" select="1850"/>
        <xsl:with-param name="to" select="2020"/>
      </xsl:call-template>
    </pre>
  </xsl:template>

  <xsl:template match="book" mode="row">
    <tr id="{@id}">
      <xsl:attribute name="class">
        <xsl:choose>
          <xsl:when test="stock = 0">sold-out</xsl:when>
          <xsl:when test="price &gt; $threshold">premium</xsl:when>
          <xsl:otherwise>regular</xsl:otherwise>
        </xsl:choose>
      </xsl:attribute>
      <td><xsl:number value="position()" format="01"/></td>
      <td><xsl:value-of select="normalize-space(title)"/><xsl:apply-templates select="tags"/></td>
      <td><xsl:value-of select="concat(substring-after(author, ' '), ', ', substring-before(author, ' '))"/></td>
      <td><xsl:value-of select="@year"/></td>
      <td align="right"><xsl:value-of select="format-number(price, '#.##0,00', 'eu')"/></td>
      <td>
        <xsl:choose>
          <xsl:when test="stock = 0">&#x2014;</xsl:when>
          <xsl:otherwise><xsl:value-of select="stock"/> in stock</xsl:otherwise>
        </xsl:choose>
      </td>
    </tr>
  </xsl:template>

  <xsl:template match="tags">
    <xsl:text> [</xsl:text>
    <xsl:for-each select="tag">
      <xsl:value-of select="."/>
      <xsl:if test="position() != last()">/</xsl:if>
    </xsl:for-each>
    <xsl:text>]</xsl:text>
  </xsl:template>

  <xsl:template match="note">
    <blockquote cite="#{../@id}"><xsl:value-of select="."/></blockquote>
  </xsl:template>

  <!-- Sums price * stock over a node set by recursion (no extension functions). -->
  <xsl:template name="inventory-value">
    <xsl:param name="books"/>
    <xsl:param name="acc" select="0"/>
    <xsl:choose>
      <xsl:when test="not($books)">
        <xsl:value-of select="format-number($acc, '0.00')"/>
      </xsl:when>
      <xsl:otherwise>
        <xsl:call-template name="inventory-value">
          <xsl:with-param name="books" select="$books[position() &gt; 1]"/>
          <xsl:with-param name="acc" select="$acc + $books[1]/price * $books[1]/stock"/>
        </xsl:call-template>
      </xsl:otherwise>
    </xsl:choose>
  </xsl:template>

  <xsl:template name="histogram">
    <xsl:param name="from"/>
    <xsl:param name="to"/>
    <xsl:if test="$from &lt;= $to">
      <xsl:variable name="n" select="count(/library/book[@year &gt;= $from and @year &lt; $from + 10])"/>
      <xsl:value-of select="concat($from, 's ', substring('##############################', 1, $n), ' ', $n, '&#10;')"/>
      <xsl:call-template name="histogram">
        <xsl:with-param name="from" select="$from + 10"/>
        <xsl:with-param name="to" select="$to"/>
      </xsl:call-template>
    </xsl:if>
  </xsl:template>
</xsl:stylesheet>
