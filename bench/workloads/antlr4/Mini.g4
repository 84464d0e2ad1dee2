// A small C-like language: functions, statements and a left-recursive expression rule.
grammar Mini;

program   : (function | declaration)* EOF ;
function  : 'fn' ID '(' params? ')' (':' type)? block ;
params    : param (',' param)* ;
param     : ID ':' type ;
type      : 'int' | 'str' | 'bool' | type '[' ']' | ID ;
block     : '{' statement* '}' ;
declaration : 'let' ID (':' type)? '=' expr ';' ;
statement : declaration                                   # Decl
          | ID ('[' expr ']')? '=' expr ';'               # Assign
          | 'if' '(' expr ')' block ('else' (block | statement))? # If
          | 'while' '(' expr ')' block                    # While
          | 'for' '(' ID 'in' expr '..' expr ')' block    # For
          | 'return' expr? ';'                            # Return
          | expr ';'                                      # ExprStmt
          | block                                         # Nested
          ;
expr      : expr '(' args? ')'                            # Call
          | expr '[' expr ']'                             # Index
          | expr '.' ID                                   # Field
          | ('-' | '!') expr                              # Unary
          | expr ('*' | '/' | '%') expr                   # Mul
          | expr ('+' | '-') expr                         # Add
          | expr ('<' | '<=' | '>' | '>=') expr           # Compare
          | expr ('==' | '!=') expr                       # Equal
          | expr '&&' expr                                # And
          | expr '||' expr                                # Or
          | expr '?' expr ':' expr                        # Cond
          | '[' args? ']'                                 # List
          | '(' expr ')'                                  # Paren
          | ID                                            # Name
          | INT                                           # Int
          | STRING                                        # Str
          | ('true' | 'false')                            # Bool
          ;
args      : expr (',' expr)* ;

ID        : [a-zA-Z_] [a-zA-Z_0-9]* ;
INT       : [0-9]+ ;
STRING    : '"' (~["\\\r\n] | '\\' .)* '"' ;
COMMENT   : '//' ~[\r\n]* -> skip ;
WS        : [ \t\r\n]+ -> skip ;
