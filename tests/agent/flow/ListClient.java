class List{
  Object[] elems; int count;
  List(){ elems = new Object[1000]; }
  List(List l){ this(); // call default constructor
    for(java.util.Iterator it = l.iterator(); it.hasNext();)
      { add(it.next()); } }
  void add(Object m){
    Object[] t = this.elems;
    t[count++] = m;
  }
  Object get(int ind){
    Object[] t = this.elems;
    Object p = t[ind]; return p;
  }
  java.util.Iterator iterator(){
    return new ListIterator(this);
  }
}
class ListIterator implements java.util.Iterator{
  int pos = 0; List list;
  ListIterator(List l){
    this.list = l;
  }
  public boolean hasNext(){ return pos < list.count - 1;}
  public Object next(){ return list.get(pos ++);}
}
class ListClient{
  List myList;
  ListClient(List l){ myList = l; }
  ListClient deepClone(){
    List j = new List(myList);
    return new ListClient(j);
  }
  ListClient shallowClone(){
    return new ListClient(myList);
  }

public static void main(String[] args){
  List data1 = new List();
  for(int i = 0; i < 1000; i++)
    data1.add(new Integer(i));
  List data2 = new List();
  for(int i = 0; i < 5; i++){
    data2.add(new String(args[i]));
    System.out.println(data2.get(i));}
  ListClient c1 = new ListClient(data1);
  ListClient c2 = new ListClient(data2);
  ListClient new_c1 = c1.deepClone();
  ListClient new_c2 = c2.shallowClone();
}
}
